; The parts of tests/data/boards/parts-lab.toml, live (the GUI's Bench tab,
; tests/gui_parts.rs): in an endless loop it copies the A/D result of the
; pot on AN1 (SCAN) to $80, counts the generator's rising edges on PA2
; (IC1F) in $82-$83, shows the start switch (PA0) on the green LED (PA6),
; the mode switch (PE0) on the amber LED (PA4) and the step button (PA1)
; on the red LED (PA5, lit while the button pulls PA1 low). IRQ (made
; edge-sensitive) counts its falling edges in $84; XIRQ counts its
; entries in $85 while it is held low.
PORTA       equ $00
PORTE       equ $0A
TCTL2       equ $21
TFLG1       equ $23
ADCTL       equ $30
ADR1        equ $31
OPTION      equ $39
            org $0080
pot         ds.b 1
            ds.b 1
edges       ds.w 1
irqs        ds.b 1
xirqs       ds.b 1
            org $C000
Start       lds  #$7FFF
            ldaa #$A0           ; ADPU, IRQE (time protected: first 64 cycles)
            staa OPTION
            ldaa #$10
            staa TCTL2          ; IC1 on rising edges
            ldaa #$21           ; SCAN AN1
            staa ADCTL
            tpa
            anda #$AF           ; clear X and I: XIRQ and IRQ on
            tap
loop        ldaa ADR1
            staa pot
            brclr TFLG1,#$04,no_edge
            ldaa #$04
            staa TFLG1          ; clear IC1F
            ldx  edges
            inx
            stx  edges
no_edge     ldab PORTE
            clra
            lsrb                ; PE0 -> carry
            bcc  no_amber
            oraa #$10           ; amber on PA4
no_amber    ldab PORTA
            lsrb                ; PA0 -> carry
            bcc  no_green
            oraa #$40           ; green on PA6
no_green    lsrb                ; PA1 -> carry
            bcc  red_on         ; pressed (0): PA5 stays 0, red lit
            oraa #$20           ; released: PA5 = 1, red off
red_on      staa PORTA
            bra  loop
on_irq      inc  irqs
            rti
on_xirq     inc  xirqs
            rti
            org  $FFF2
            dc.w on_irq
            dc.w on_xirq
            org  $FFFE
            dc.w Start
