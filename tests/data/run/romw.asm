            org $C000
Start       lds  #$7FFF
            ldaa #$55
            staa $C100
            bra  *
            org  $FFFE
            dc.w Start
