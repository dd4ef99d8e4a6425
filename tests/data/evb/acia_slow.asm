; Reads the EVB's host port (the MC6850 ACIA at $9800, 38400 Bd) slowly:
; once a byte is there it waits about five frames before it takes it, so
; bytes sent back to back overrun it. It keeps the bytes from $0020 on,
; their count at $0010 and, at $0011, the OVRN bit if it ever saw it.
; It brings its own reset vector, so it runs without a monitor.
ACIA    equ     $9800
COUNT   equ     $10
OVRN    equ     $11
        org     $E000
start   lds     #$00FF
        clr     COUNT
        clr     OVRN
        ldx     #$0020
        ldaa    #$03            ; master reset
        staa    ACIA
        ldaa    #$15            ; divide by 16 (38400 Bd), 8 bits, 1 stop bit
        staa    ACIA
loop    ldaa    ACIA
        bita    #$01            ; RDRF
        beq     loop
        ldy     #400            ; 400 x 7 E-cycles: five frames
delay   dey
        bne     delay
        ldaa    ACIA
        anda    #$20            ; OVRN
        oraa    OVRN
        staa    OVRN
        ldaa    ACIA+1
        staa    0,x
        inx
        inc     COUNT
        bra     loop
        org     $FFFE
        fdb     start
