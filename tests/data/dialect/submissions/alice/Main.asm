* Alice: right, written the AS11 way (no semicolons before comments).
         NAM   ANSWER
         ORG   $0040
RESULT   RMB   1
         ORG   $C000
START    LDS   #$FF      top of RAM
         LDAA  #6*7      left to right: 42
         STAA  RESULT    keep it
IDLE     BRA   *         done
         ORG   $FFFE
         FDB   START
         END
