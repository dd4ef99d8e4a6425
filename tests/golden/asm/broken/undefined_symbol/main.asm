        org     $C000
LCDsend rts
        jsr     LCDsnd
        jsr     lcdSEND
        ldaa    #unknownThing
