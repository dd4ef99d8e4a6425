* Calls each routine of the monitor's jump table and keeps what it
* returns in RAM from $0000 on (the checks are in tests/evb_monitor.rs).
UPCASE  EQU  $FFA0
WCHEK   EQU  $FFA3
DCHEK   EQU  $FFA6
INPUT   EQU  $FFAC
OUTPUT  EQU  $FFAF
OUTLHLF EQU  $FFB2
OUTRHLF EQU  $FFB5
OUTA    EQU  $FFB8
OUT1BYT EQU  $FFBB
OUT1BSP EQU  $FFBE
OUT2BSP EQU  $FFC1
OUTCRLF EQU  $FFC4
OUTSTRG EQU  $FFC7
OUTST0  EQU  $FFCA
INCHAR  EQU  $FFCD

        ORG  $0000
RES     RMB  16

        ORG  $C000
START   LDAA #'q
        JSR  UPCASE
        STAA RES          'Q'
        LDAA #'7
        JSR  UPCASE
        STAA RES+1        '7' unchanged
        LDAA #',
        JSR  WCHEK
        TPA
        STAA RES+2        Z set: a comma is white space
        LDAA #$0D
        JSR  WCHEK
        TPA
        STAA RES+3        Z clear: CR is not
        LDAA #$0D
        JSR  DCHEK
        TPA
        STAA RES+4        Z set: CR is a delimiter
        JSR  INPUT
        STAA RES+5        0: nothing typed yet
        TPA
        STAA RES+6        with Z set
        LDAA #$A7
        JSR  OUTLHLF      'A'
        LDAA #$A7
        JSR  OUTRHLF      '7'
        LDAA #'-
        JSR  OUTA
        LDX  #DATA
        JSR  OUT1BYT      '3C'
        STX  RES+7        X moved on by one
        JSR  OUT2BSP      '4D5E '
        STAA RES+9        A is the space
        JSR  OUT1BSP      '6F '
        LDX  #TEXT
        JSR  OUTST0       'abc' without a new line first
        STX  RES+10       X on the $04
        JSR  OUTCRLF
        STAA RES+12       A is CR
        JSR  INCHAR
        STAA RES+13       the key, echoed
        SWI
DATA    FCB  $3C,$4D,$5E,$6F
TEXT    FCC  'abc'
        FCB  4
        END  START
