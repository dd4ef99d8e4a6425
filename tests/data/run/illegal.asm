            org $C000
Start       lds  #$7FFF
            ldaa #$12
            ldab #$34
            fcb  $41            ; no instruction
            bra  *
Trap        ldaa #$99
            staa $0050
            sei
            bra  *
            org  $FFF8
            dc.w Trap
            org  $FFFE
            dc.w Start
