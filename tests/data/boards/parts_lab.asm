; The parts of tests/data/boards/parts-lab.toml at work: converts the pot
; on AN1, measures the generator on PA2 with IC1 (rising edges), then
; shows the switch on PA0 on the green LED (PA6) and the switch on PE0 on
; the amber LED (PA4), and stops. Results at $80:
;   $80 ADR1 (AN1), $81 PORTA, $82 PORTE, $83 unused, $84-$85 IC1 period.
PORTA       equ $00
TIC1        equ $10
TCTL2       equ $21
TFLG1       equ $23
ADCTL       equ $30
ADR1        equ $31
OPTION      equ $39
PORTE       equ $0A
            org $0080
pot         ds.b 1
pins_a      ds.b 1
pins_e      ds.b 1
            ds.b 1
period      ds.w 1
first       ds.w 1
            org $C000
Start       lds  #$7FFF
            ldaa #$80
            staa OPTION         ; ADPU: charge pump on
            ldx  #100           ; about 150 us > the 100 us power-up delay
warm        dex
            bne  warm
            ldaa #$01           ; single channel AN1
            staa ADCTL
wadc        brclr ADCTL,#$80,wadc
            ldaa ADR1
            staa pot
            ldaa #$10
            staa TCTL2          ; IC1 on rising edges
            ldaa #$04
            staa TFLG1
w1          brclr TFLG1,#$04,w1
            ldd  TIC1
            std  first
            ldaa #$04
            staa TFLG1
w2          brclr TFLG1,#$04,w2
            ldd  TIC1
            subd first
            std  period
            ldaa PORTA
            staa pins_a
            ldab PORTE
            stab pins_e
            clra
            lsrb                ; PE0 -> carry
            bcc  no_amber
            oraa #$10           ; PA4: amber
no_amber    ldab porta
            lsrb                ; PA0 -> carry
            bcc  no_green
            oraa #$40           ; PA6: green
no_green    staa PORTA          ; PA5 stays 0: the red LED (active low) is lit
            sei
done        bra  done
            org  $FFFE
            dc.w Start
