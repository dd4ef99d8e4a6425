        org     $C000
loop    nop
Loop    bra     loop
