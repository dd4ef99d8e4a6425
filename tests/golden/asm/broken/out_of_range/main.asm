        org     $C000
top     ldaa    <$1234          ; direct
        ldaa    300,x           ; indexed
        bset    $40,#$1FF       ; mask
        ds.b    200
        bne     top             ; branch
