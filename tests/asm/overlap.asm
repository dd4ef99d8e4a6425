* Two sections putting bytes at the same addresses.
A       Section
        org     $C000
        ldaa    #1              ; => 86 01
        ldaa    #2              ; => 86 02
B       Section
        org     $C002
        nop                     ; error[E0018]: bytes at $C002-$C002 are already used
        org     $C010
        nop                     ; => 01
