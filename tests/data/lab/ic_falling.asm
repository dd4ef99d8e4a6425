; Input capture lab: IC1 (PA2) on falling edges measures the period of the
; square wave on PA2 as the difference of two captures.
TIC1        equ $10
TCTL2       equ $21
TFLG1       equ $23
            org $0080
first       ds.w 1
second      ds.w 1
period      ds.w 1
            org $C000
Start       lds  #$7FFF
            ldaa #$20
            staa TCTL2          ; EDG1B:EDG1A = 10: IC1 on falling edges
            ldaa #$04
            staa TFLG1          ; clear IC1F
w1          brclr TFLG1,#$04,w1
            ldd  TIC1
            std  first
            ldaa #$04
            staa TFLG1
w2          brclr TFLG1,#$04,w2
            ldd  TIC1
            std  second
            subd first
            std  period
            sei
done        bra  done
            org  $FFFE
            dc.w Start
