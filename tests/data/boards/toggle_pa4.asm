; Toggles PA4 by PORTA writes every 8 E-cycles, forever: a long run of
; edges for the pin trace's cap (tests/board_parts.rs).
PORTA       equ $00
            org $C000
Start       lds  #$7FFF
            clra
loop        eora #$10           ; 2 cycles
            staa PORTA          ; 3: the pin follows at the write
            bra  loop           ; 3
            org  $FFFE
            dc.w Start
