* Prints a star, then calls CHKABRT in a loop and counts the calls at
* $0000-$0001: a key other than CTRL-X, DEL or CTRL-W is dropped, CTRL-W
* waits for the next key, CTRL-X ends the program at the monitor's prompt.
CHKABRT EQU  $FF9D
OUTA    EQU  $FFB8

        ORG  $0000
CALLS   RMB  2

        ORG  $C000
START   CLR  CALLS
        CLR  CALLS+1
        LDAA #'*
        JSR  OUTA
LOOP    LDX  CALLS
        INX
        STX  CALLS
        JSR  CHKABRT
        BRA  LOOP
        END  START
