; A/D lab: power the converter up, convert AN1 four times (single channel),
; then AN4-AN7 once each (MULT), store the results and the TCNT at the
; ADCTL write and when CCF was seen, then stop.
PORTA       equ $00
TCNT        equ $0E
ADCTL       equ $30
ADR1        equ $31
OPTION      equ $39
            org $0080
single      ds.b 4              ; ADR1-ADR4 of the AN1 sequence
multi       ds.b 4              ; ADR1-ADR4 of the AN4-AN7 sequence
t_start     ds.w 1              ; TCNT read just before the ADCTL write
t_ccf       ds.w 1              ; TCNT read just after CCF was seen
            org $C000
Start       lds  #$7FFF
            ldaa #$80
            staa OPTION         ; ADPU: charge pump on
            ldx  #100           ; about 150 us > the 100 us power-up delay
warm        dex
            bne  warm
            ldd  TCNT
            std  t_start
            ldaa #$01           ; single channel AN1, no SCAN, no MULT
            staa ADCTL
wait1       brclr ADCTL,#$80,wait1
            ldd  TCNT
            std  t_ccf
            ldd  ADR1
            std  single
            ldd  ADR1+2
            std  single+2
            ldaa #$14           ; MULT, channels 4-7
            staa ADCTL
wait2       brclr ADCTL,#$80,wait2
            ldd  ADR1
            std  multi
            ldd  ADR1+2
            std  multi+2
            sei
done        bra  done
            org  $FFFE
            dc.w Start
