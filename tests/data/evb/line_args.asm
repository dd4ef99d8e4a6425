* Reads the rest of the line it was started with (`G C000 word`) through
* the monitor's buffer routines: WSKIP to the first word, READBUFF and
* INCBUFF along it to the next delimiter, each character out with OUTA,
* then DECBUFF and READBUFF for its last character once more; a "-" when
* the line holds nothing after the address. Ends with swi.
WSKIP   EQU  $FF9A
READBUF EQU  $FF91
INCBUFF EQU  $FF94
DECBUFF EQU  $FF97
DCHEK   EQU  $FFA6
OUTA    EQU  $FFB8

        ORG  $C000
START   JSR  WSKIP
        BEQ  NONE
WORD    JSR  READBUF
        JSR  DCHEK
        BEQ  BACK
        JSR  OUTA
        JSR  INCBUFF
        BRA  WORD
BACK    JSR  DECBUFF
        JSR  READBUF
        JSR  OUTA
        SWI
NONE    LDAA #'-
        JSR  OUTA
        SWI
        END  START
