; Hello over the SCI on the evb board: registers at $1000 as after reset,
; the program in the EVB's user RAM at $C000.
; hc11lab run --board evb tests/data/boards/evb_hello.asm
SCSR        equ $102E
SCDR        equ $102F
            org $C000
Start       lds  #$00FF
            ldx  #text
next        ldaa 0,x
            beq  done
wait        ldab SCSR           ; TDRE: the transmitter is free
            bpl  wait
            staa SCDR
            inx
            bra  next
done        bra  done
text        dc.b 'Hello from the EVB',13,10,0
            org  $FFFE
            dc.w Start
