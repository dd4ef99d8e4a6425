* Counts real-time interrupts through the monitor's pseudo-vector at
* $00EB, prints with OUTSTRG and OUT1BSP, waits for a key with INCHAR and
* returns to the monitor with SWI. It lives in the EEPROM ($B600), which
* the EVB and the EVBU both have, so it runs unchanged on either.
* hc11lab run --board evb --dialect as11 tests/data/evb/ticks.asm --serial-in x
OUTSTRG EQU  $FFC7
OUT1BSP EQU  $FFBE
OUTCRLF EQU  $FFC4
INCHAR  EQU  $FFCD
TMSK2   EQU  $1024
TFLG2   EQU  $1025

        ORG  $0000
TICKS   RMB  1

        ORG  $00EB       the real-time interrupt's slot
        JMP  TICK

        ORG  $B600
START   LDX  #HELLO
        JSR  OUTSTRG
        CLR  TICKS
        LDAA #$40
        STAA TMSK2       RTII: an interrupt every 4.1 ms
        CLI
WAIT    LDAA TICKS
        CMPA #10
        BLO  WAIT
        SEI
        LDX  #TICKS
        JSR  OUT1BSP
        JSR  INCHAR
        JSR  OUTCRLF
        SWI
TICK    INC  TICKS
        LDAA #$40
        STAA TFLG2       clear RTIF
        RTI
HELLO   FCC  'Counting ticks'
        FCB  4
        END  START
