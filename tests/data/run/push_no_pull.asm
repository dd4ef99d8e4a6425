; A subroutine pushes A and returns without pulling it: the rts takes the
; pushed byte and one of the return address for the address to go on at.
        org $C000
start   lds #$00FF
        jsr sub
        bra start
sub     ldaa #$12
        psha
        rts
        org $FFFE
        dc.w start
