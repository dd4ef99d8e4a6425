SCSR        equ $2E
SCDR        equ $2F
            org $C000
Start       lds  #$7FFF
loop        ldaa SCSR
            anda #$20
            beq  loop
            ldab SCDR
tx          ldaa SCSR
            anda #$80
            beq  tx
            stab SCDR
            bra  loop
            org  $FFFE
            dc.w Start
