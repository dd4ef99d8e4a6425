; Reads a byte, then wastes about 5 frames before polling again, so bytes
; arriving in between are lost and OR is set. Stores each SCSR it saw with
; RDRF set and each byte it read, at $0100 on.
SCSR        equ $2E
SCDR        equ $2F
            org $C000
Start       lds  #$7FFF
            ldx  #$0100
loop        ldaa SCSR
            bita #$20
            beq  loop
            staa 0,x
            ldab SCDR
            stab 1,x
            inx
            inx
            ldy  #2000          ; 2000 x 7 E-cycles: about 6.7 frames at 9600 Bd
wait        dey
            bne  wait
            bra  loop
            org  $FFFE
            dc.w Start
