* Keeps its variables in the upper half of the MC68HC11E9's 512 bytes of
* RAM ($0100-$01FF), as EVBU programs do, and returns to the monitor.
        ORG  $0100
COUNT   FDB  $1234
        ORG  $01FF
LAST    FCB  0

        ORG  $B600
START   LDD  COUNT
        ADDD #1
        STD  COUNT
        LDAA #$A5
        STAA LAST
        SWI
        END  START
