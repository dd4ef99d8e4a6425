; Pulse accumulator lab, with a square wave on PA7 (PAI).
; 1. Event counting of rising edges from PACNT = $FE: the second edge rolls
;    it over to $00 and sets PAOVF (and PAIF at each edge).
; 2. Gated time accumulation while PAI is high: wait for one end of the gate
;    (PAIF), clear PACNT, wait for the next end and read the E/64 count of
;    one whole high phase.
TCNT        equ $0E
TFLG2       equ $25
PACTL       equ $26
PACNT       equ $27
            org $0080
t_ovf       ds.w 1              ; TCNT after PAOVF was seen
count_ovf   ds.b 1              ; PACNT then
flags_ovf   ds.b 1              ; TFLG2 & (PAOVF|PAIF) then
gated       ds.b 1              ; PACNT after one gate
t_gate      ds.w 1              ; TCNT after the gate closed
            org $C000
Start       lds  #$7FFF
            ldaa #$FE
            staa PACNT
            ldaa #$30
            staa TFLG2          ; clear PAOVF, PAIF
            ldaa #$50           ; PAEN, event mode, PEDGE = 1: rising edges
            staa PACTL
w_ovf       brclr TFLG2,#$20,w_ovf
            ldd  TCNT
            std  t_ovf
            ldaa PACNT
            staa count_ovf
            ldaa TFLG2
            anda #$30
            staa flags_ovf
            ldaa #$60           ; PAEN, PAMOD: gated, open while PAI high
            staa PACTL
            ldaa #$10
            staa TFLG2
w_end1      brclr TFLG2,#$10,w_end1
            clr  PACNT
            ldaa #$10
            staa TFLG2
w_end2      brclr TFLG2,#$10,w_end2
            ldd  TCNT
            std  t_gate
            ldaa PACNT
            staa gated
            sei
done        bra  done
            org  $FFFE
            dc.w Start
