; Waits in WAI with I clear and no device interrupt enabled: only the IRQ
; pin, driven by the script later, can wake it.
            org $C000
Start       lds  #$7FFF
            cli
            wai
            bra  *
Handler     ldaa #$42
            staa $0080
            sei
            bra  *
            org  $FFF2
            dc.w Handler
            org  $FFFE
            dc.w Start
