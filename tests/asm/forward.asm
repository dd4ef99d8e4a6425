* Forward references that settle over several walks, and ones that cannot.
        org     $C000
        ldaa    #a              ; => 86 05
a       equ     b
b       equ     c
c       equ     5
        ldx     #after          ; => CE C0 0C
        ldaa    <late           ; => 96 10
        ldaa    late            ; => B6 00 10
late    equ     $10
        ldaa    #bad            ; =>
bad     equ     missing+1       ; error[E0004]: undefined symbol `missing`
after   nop                     ; => 01
        org     $0100
buf     ds.b    fin-buf         ; error[E0025]: this value depends on `fin`
fin     ds.b    1
        org     gap             ; =>
gap     equ     $0200
        dc.b    1               ; => 01
