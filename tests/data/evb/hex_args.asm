* Reads hex arguments as BUFFALO's HEXBIN, BUFFARG and TERMARG give them,
* in SHFTREG ($0096) and TMP1 ($00C0): BUFFARG the one after `G C000` on
* the typed line, TERMARG one typed on the terminal, then HEXBIN with an
* "x" (no hex digit) and an "e". Keeps what they return from RES on (the
* checks are in tests/evb_monitor.rs) and ends with swi.
SHFTREG EQU  $0096
TMP1    EQU  $00C0
HEXBIN  EQU  $FF85
BUFFARG EQU  $FF88
TERMARG EQU  $FF8B

        ORG  $0000
RES     RMB  11

        ORG  $C000
START   JSR  BUFFARG
        STAA RES            the delimiter
        LDD  SHFTREG
        STD  RES+1
        LDAA TMP1
        STAA RES+3
        JSR  TERMARG
        STAA RES+4          the delimiter
        LDD  SHFTREG
        STD  RES+5
        LDAA TMP1
        STAA RES+7
        LDAA #'x
        JSR  HEXBIN
        LDAB TMP1
        STAB RES+8
        LDAA #'e
        JSR  HEXBIN
        LDD  SHFTREG
        STD  RES+9
        SWI
        END  START
