* Starts with an interrupt stub in the pseudo-vector slots: the program
* starts after it, at its first instruction outside $00C4-$00FF.
        ORG  $00E2       TIC3's slot
        JMP  CAPTURE

        ORG  $C000
MAIN    LDAA #1
        STAA $0010
        SWI
CAPTURE RTI
