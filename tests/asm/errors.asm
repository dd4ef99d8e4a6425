* Each line below must produce exactly the diagnostics written after it.
        org     $C000
dup     nop
DUP     nop                     ; error[E0005]: `DUP` is defined twice
        ldaaa   #1              ; error[E0003]: unknown mnemonic `ldaaa`
        ldaa    #nowhere        ; error[E0004]: undefined symbol `nowhere`
        ldaa    #$100           ; error[E0006]: immediate value $0100 (256) is out of range
        ldaa    #-129           ; error[E0006]
        ldaa    <$100           ; error[E0006]: direct address
        ldaa    256,x           ; error[E0006]: index offset
        ldaa    -1,x            ; error[E0006]: index offset
        bset    $100,#1         ; error[E0006]: direct address
        bset    0,x,#$100       ; error[E0006]: bit mask
far     bra     far+200         ; error[E0007]: 198 bytes forward
        bra     far-200         ; error[E0007]: 204 bytes back
        ldaa    #12a            ; error[E0009]: `12a` is not a valid number
        ldaa    #%102           ; error[E0009]
        ldaa    #$              ; error[E0009]
        dc.b    "open           ; error[E0010]: unterminated string
        staa    #1              ; error[E0015]: `staa` has no immediate addressing mode
        jmp     <$40            ; error[E0015]: `jmp` has no direct addressing mode
        rts     now             ; error[E0022]: `rts` takes no operand
        ldaa                    ; error[E0022]: `ldaa` needs an operand
        bset    $40             ; error[E0022]: `bset` needs a bit mask
        brset   $40,#1          ; error[E0022]: `brset` needs a branch target
        equ     5               ; error[E0023]
        switch  NoSuch          ; error[E0019]: no section named `NoSuch`
        ldaa    #1/0            ; error[E0021]
        ldaa    #(1+2           ; error[E0008]: expected `)`
        ldaa    #1 2            ; error[E0008]
        .else                   ; error[E0016]: `.else` without `.if`
        .endif                  ; error[E0016]: `.endif` without `.if`
        .if     later           ; error[E0017]
        .endif
later   equ     1
        dc.b    300             ; warning[W0001]: value $012C (300) does not fit in a byte
        dc.w    $10000          ; warning[W0001]
        dc.b    '中'            ; error[E0024]
rts                             ; warning[W0002]: `rts` in column 1 is a label
self    equ     self+1          ; error[E0025]: `self` is defined in terms of itself
pingA   equ     pingB           ; error[E0025]
pingB   equ     pingA           ; error[E0025]
        org     $10000          ; error[E0006]: `org` address $10000 (65536) is out of range
        org     $FFFF
        ldaa    #1              ; error[E0020]: runs past $FFFF
1bad    nop                     ; error[E0008]: a label must start with a letter
