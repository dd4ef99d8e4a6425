; COP watchdog lab (run with CONFIG NOCOP = 0). The first boot feeds the
; COP three times, 12,000 E-cycles apart, then hangs in `stuck`; the COP
; resets the chip through $FFFA. The second boot feeds it forever.
COPRST      equ $3A
            org $0080
boots       ds.b 1              ; RAM survives the reset
            org $C000
Start       lds  #$7FFF
            inc  boots
            ldaa boots
            cmpa #1
            bne  feeder
            ldab #3
feed3       bsr  feed
            ldx  #2000          ; 2000 x 6 E-cycles
d1          dex
            bne  d1
            decb
            bne  feed3
stuck       bra  stuck
feeder      bsr  feed
            bra  feeder
feed        ldaa #$55
            staa COPRST
            ldaa #$AA
            staa COPRST
            rts
            org  $FFFA
            dc.w Start
            org  $FFFE
            dc.w Start
