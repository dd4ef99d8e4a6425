; A few steps for a monitor's trace on the d3-like board (docs/evb.md):
; it runs in RAM at $1000, outside the range that board gives in place of
; flash, and ends with swi, back to the monitor.
        org     $1000
Start   ldaa    #1
        ldab    #2
        mul                     ; ten E-cycles
        aba
        staa    $1100
        nop
        swi
