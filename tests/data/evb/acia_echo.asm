; Echoes what arrives on the EVB's host port (the MC6850 ACIA at $9800)
; back to it and answers each carriage return with "OK" and a new line;
; counts the bytes it took at $0010. It brings its own reset vector, so it
; runs without a monitor.
ACIA    equ     $9800
COUNT   equ     $10
        org     $E000
start   lds     #$00FF
        clr     COUNT
        ldaa    #$03            ; master reset
        staa    ACIA
        ldaa    #$16            ; divide by 64 (9600 Bd), 8 bits, 1 stop bit
        staa    ACIA
loop    ldaa    ACIA
        bita    #$01            ; RDRF
        beq     loop
        ldab    ACIA+1
        inc     COUNT
        bsr     send
        cmpb    #$0D
        bne     loop
        ldab    #'O'
        bsr     send
        ldab    #'K'
        bsr     send
        ldab    #$0D
        bsr     send
        ldab    #$0A
        bsr     send
        bra     loop
send    ldaa    ACIA
        bita    #$02            ; TDRE
        beq     send
        stab    ACIA+1
        rts
        org     $FFFE
        fdb     start
