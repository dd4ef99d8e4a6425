* Sums 1..1000 into SUM, the way an EVB program keeps its variables:
* in the internal RAM at $0000. On the trainer11 the register block
* lies there after reset, so `run` warns before it runs.
        ORG     $E000
START   LDS     #$00FF
        LDX     #0
        LDD     #0
LOOP    STD     SUM
        INX
        XGDX
        STD     CNT
        XGDX
        LDD     SUM
        ADDD    CNT
        CPX     #1000
        BNE     LOOP
        STD     SUM
DONE    BRA     DONE
        ORG     $0010
SUM     RMB     2
CNT     RMB     2
        ORG     $FFFE
        FDB     START
