; A tiny monitor for the evb board's ROM ($E000-$FFFF), written for the
; --rom tests: it sets up the SCI (9600 Bd at an 8 MHz crystal), prints a
; prompt, echoes every byte it receives and answers a carriage return with
; a new line and the prompt again. It uses the registers where the chip
; has them after reset ($1000) and the internal RAM for its stack.
BAUD        equ $102B
SCCR2       equ $102D
SCSR        equ $102E
SCDR        equ $102F
TDRE        equ $80
RDRF        equ $20

            org $E000
Reset       lds  #$00FF
            ldaa #$30           ; 9600 Bd
            staa BAUD
            ldaa #$0C           ; TE, RE
            staa SCCR2
            ldx  #hello
            bsr  puts
prompt      ldx  #ready
            bsr  puts
next        ldab SCSR           ; wait for a byte
            andb #RDRF
            beq  next
            ldaa SCDR
            bsr  putc           ; echo it
            cmpa #13
            bne  next
            ldaa #10
            bsr  putc
            bra  prompt

; puts: send the zero-terminated text at X.
puts        ldaa 0,x
            beq  putsdone
            bsr  putc
            inx
            bra  puts
putsdone    rts

; putc: send A when the transmitter is free.
putc        ldab SCSR
            andb #TDRE
            beq  putc
            staa SCDR
            rts

hello       dc.b 'tiny monitor 1.0',13,10,0
ready       dc.b '> ',0

            org  $FFFE
            dc.w Reset
