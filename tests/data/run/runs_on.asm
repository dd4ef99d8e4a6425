; No branch at the end: the CPU runs on past the last instruction.
        org $C000
start   lds #$00FF
        ldaa #1
        staa $40
        org $FFFE
        dc.w start
