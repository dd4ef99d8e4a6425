* The course dialect: labels, case, numbers, sections, data, conditionals.
RamSection      Section
                org     $0040
ramBegin        equ     *               ; =>
board           ds.b    boardSize       ; =>
cellAddress     ds.w    1
counter         rmb     2
flag            ds      1
RomSection      Section
                org     $C000
Init:           ldaa    #%0101          ; => 86 05
                ldaa    #@17            ; => 86 0F
                ldaa    #0x1F           ; => 86 1F
                ldaa    #1Fh            ; => 86 1F
                ldaa    #31             ; => 86 1F
                ldx     #BOARD          ; => CE 00 40
                ldd     cellAddress     ; => FC 01 90
                ldd     CELLADDRESS     ; => FC 01 90
                staa    flag            ; => B7 01 94
                ldx     #ramEnd         ; => CE 01 95
                jsr     Later           ; => BD C0 23
                ldaa    fwdZero         ; => B6 00 10
                ldaa    LateConst       ; => B6 00 20
  indented:     nop                     ; => 01
Later           rts                     ; => 39
                switch  RamSection
ramEnd          equ     *
                switch  RomSection
text            dc.b    5,"Hi",'!',0    ; => 05 48 69 21 00
                dc.b    "ä€"            ; => E4 80
                fcb     $01,$02         ; => 01 02
                db      -1,255          ; => FF FF
words           dc.w    $1234,text      ; => 12 34 C0 24
                fdb     1               ; => 00 01
                dw      -1              ; => FF FF
                fcc     "ab;c"          ; => 61 62 3B 63
                fcc     /xy/            ; => 78 79
                dc.b    'A'+1           ; => 42
                DC.B    $41             ; => 41
boardSize       equ     336
fwdZero         equ     $10
LateConst       =       $20
                .ifndef MAP_PAGE
MAP_PAGE        equ     $00
                .endif
                .ifdef  MAP_PAGE
                nop                     ; => 01
                .else
                swi                     ; =>
                .endif
                ifndef  MAP_PAGE
                swi                     ; =>
                else
                .if     MAP_PAGE == 0
                inca                    ; => 4C
                .if     1
                incb                    ; => 5C
                .endif
                .else
                deca                    ; =>
                .endif
                endif
                .if     boardSize > 300 && MAP_PAGE = 0
                clc                     ; => 0C
                .endif
last            bra     last            ; => 20 FE
                end
                this is never read ; => no bytes, no error
