; sum.asm: adds the bytes of a table and reports on the serial line.
; Written for Motorola's EVB (registers at $1000, user RAM at $C000):
;   hc11lab run --board evb examples/course/01-sum/sum.asm
; The lesson beside it (lesson.toml) walks through it in the debugger.

SCSR        equ     $102E           ; SCI status: bit 7 TDRE, the transmitter is free
SCDR        equ     $102F           ; SCI data

            org     $C000
Start       lds     #$00FF          ; the stack at the top of the internal RAM
            clra                    ; D = A:B is the running sum
            clrb
            ldx     #table
loop        addb    0,x             ; add the next byte to B ...
            adca    #0              ; ... and its carry to A
            inx
            cpx     #tableEnd
            bne     loop
            std     sum             ; 12 + 30 + 7 + 200 + 51 = 300 = $012C
            ldx     #message
next        ldaa    0,x             ; send the message, byte by byte
            beq     done
wait        ldab    SCSR
            bpl     wait
            staa    SCDR
            inx
            bra     next
done        bra     done

table       dc.b    12,30,7,200,51
tableEnd
message     dc.b    'sum ready',13,10,0
sum         ds.w    1

            org     $FFFE           ; the reset vector: start here
            dc.w    Start
