; Never ends the host port ACIA's master reset: it only writes the reset
; control word, then waits. It brings its own reset vector.
ACIA    equ     $9800
        org     $E000
start   lds     #$00FF
        ldaa    #$03            ; master reset, and nothing after it
        staa    ACIA
idle    bra     idle
        org     $FFFE
        fdb     start
