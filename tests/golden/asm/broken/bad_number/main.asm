        ldaa    #$G1
        ldaa    #0x
        ldaa    #99999999999999999999999
        ldab    #%2
