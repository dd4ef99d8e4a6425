* Bob: assembles, but stores 2+4*5 = 30 the AS11 way (left to right).
         ORG   $0040
RESULT   RMB   1
         ORG   $C000
START    LDS   #$FF
         LDAA  #2+4*5    not 22 in AS11
         STAA  RESULT
IDLE     BRA   IDLE
         ORG   $FFFE
         FDB   START
