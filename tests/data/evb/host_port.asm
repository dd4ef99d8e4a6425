; Probes the EVB's host port as BUFFALO does at reset: a master reset of
; the MC6850 ACIA at $9800 (its status reads 0), a control word (TDRE
; reads 1), two characters out, and a write and a read of the D flip-flop
; at $4000. It brings its own reset vector, so it runs without a monitor.
ACIA    equ     $9800
        org     $E000
start   lds     #$00FF
        ldaa    #$03            ; master reset
        staa    ACIA
        ldaa    ACIA
        staa    $10
        ldaa    #$15            ; divide by 16, 8 bits, 1 stop bit
        staa    ACIA
        ldaa    ACIA
        staa    $11
        ldaa    #'H'
        staa    ACIA+1
        ldaa    #$5A
        staa    $4000           ; the flip-flop takes it
        ldaa    $4000
        staa    $12
wait    ldaa    ACIA
        bita    #$02            ; TDRE
        beq     wait
        ldaa    #'i'
        staa    ACIA+1
idle    bra     idle
        org     $FFFE
        fdb     start
