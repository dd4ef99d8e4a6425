;------------------------------------------------------------
; A small program for the listing golden test: sections,
; includes, forward references, data, conditionals, vectors.
;------------------------------------------------------------
                include lib/regs.inc

RamSection      Section
                org     $0040
buffer          ds.b    bufSize         ; forward reference
counter         ds.w    1
flag
                ds.b    1

RomSection      Section
                org     $C000
Start           lds     #$3FFF
                ldx     #buffer
                clra
clear           staa    0,x
                inx
                cpx     #buffer+bufSize
                bne     clear
                bset    PORTD,#%00100000
wait            brclr   SCSR, #$80, wait
                ldaa    message
                jsr     putChar
                bra     *

putChar         brclr   SCSR,#$80,*
                staa    SCDR
                rts

message         dc.b    13,"hc11lab",10,0
table           dc.w    Start,putChar,$1234
bufSize         equ     16

                .ifdef  DEBUG
                swi
                .endif

VSection        Section
                org     $FFFE
                dc.w    Start
