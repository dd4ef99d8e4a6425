; A computed jump through X to where the program put nothing.
        org $C000
start   lds #$00FF
        ldx #$2000
        jmp 0,x
        org $FFFE
        dc.w start
