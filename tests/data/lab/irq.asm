; IRQ pin lab: the main loop polls PORTA with interrupts on; the IRQ
; handler counts and sets I in the stacked CCR, so one assertion of the
; level-sensitive pin is taken exactly once.
PORTA       equ $00
            org $0080
count       ds.b 1
            org $C000
Start       lds  #$7FFF
            cli
loop        ldaa PORTA
            bra  loop
IrqIsr      inc  count
            tsx
            ldaa 0,x            ; the stacked CCR
            oraa #$10           ; I: no more IRQs after the RTI
            staa 0,x
            rti
            org  $FFF2
            dc.w IrqIsr
            org  $FFFE
            dc.w Start
