; Output compare lab: OC2 toggles PA6 every 500 E-cycles (TCTL1 OM2:OL2 = 01);
; the program samples PORTA each time OC2F sets and stores the samples.
; Then OC1 drives PA7, PA5 and PA3 at once (OC1M/OC1D) while PA4 stays a
; plain output, and CFORC forces OC3 (set PA5) without its flag.
TCNT        equ $0E
PORTA       equ $00
CFORC       equ $0B
OC1M        equ $0C
OC1D        equ $0D
TOC1        equ $16
TOC2        equ $18
TCTL1       equ $20
TFLG1       equ $23
PACTL       equ $26
            org $0080
samples     ds.b 8              ; PORTA after each of 8 OC2 matches
oc1_before  ds.b 1              ; PORTA before the OC1 match
oc1_after   ds.b 1              ; PORTA after it
forced      ds.b 1              ; PORTA after CFORC forced OC3
flags       ds.b 1              ; TFLG1 after CFORC (OC3F stays clear)
            org $C000
Start       lds  #$7FFF
            clr  PORTA          ; PA3-PA6 low
            ldaa #$40
            staa TCTL1          ; OM2:OL2 = 01: OC2 toggles PA6
            ldd  TCNT
            addd #500
            std  TOC2
            ldaa #$40
            staa TFLG1          ; clear OC2F
            ldx  #samples
loop        brclr TFLG1,#$40,loop
            ldaa #$40
            staa TFLG1
            ldd  TOC2
            addd #500
            std  TOC2
            ldaa PORTA
            staa 0,x
            inx
            cpx  #samples+8
            bne  loop
            clr  TCTL1          ; OC2 off the pin
            ldaa #$80
            staa PACTL          ; DDRA7: PA7 an output
            ldaa #$10
            staa PORTA          ; PA4 high by the port (PA3-PA7 follow the write)
            ldaa #$A8
            staa OC1M           ; OC1 acts on PA7, PA5, PA3
            ldaa #$88
            staa OC1D           ; PA7 high, PA5 low, PA3 high
            ldaa PORTA
            staa oc1_before
            ldd  TCNT
            addd #200
            std  TOC1
            ldaa #$80
            staa TFLG1
wait1       brclr TFLG1,#$80,wait1
            ldaa PORTA
            staa oc1_after
            clr  OC1M
            ldaa #$30
            staa TCTL1          ; OM3:OL3 = 11: OC3 sets PA5
            ldaa #$20
            staa CFORC          ; force OC3 now
            ldaa PORTA
            staa forced
            ldaa TFLG1
            anda #$20
            staa flags
            sei
done        bra  done
            org  $FFFE
            dc.w Start
