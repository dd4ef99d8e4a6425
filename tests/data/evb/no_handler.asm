* Turns the real-time interrupt on without a handler in its slot: the
* monitor catches it and names it.
TMSK2   EQU  $1024
        ORG  $C000
START   LDAA #$40
        STAA TMSK2
        CLI
LOOP    BRA  LOOP
        END  START
