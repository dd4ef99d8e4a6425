* The reference: stores 42 in RESULT and idles (AS11 dialect).
         ORG   $0040
RESULT   RMB   1         the answer
         ORG   $C000
START    LDS   #$00FF    stack at the top of RAM
         LDAA  #42       the answer
         STAA  RESULT
IDLE     BRA   IDLE      wait for ever
         ORG   $FFFE
         FDB   START     reset vector
