; The `cpu/mixed` program of benches/cpu.rs: mixed arithmetic, indexed loads
; and stores through X and Y, ADDD, JSR/RTS, MUL, IDIV, BSET/BRCLR and a
; direct-page loop counter; it never stops. Time it on the board with
;   time hc11lab run benches/programs/cpu_mixed.asm --max-cycles 500000000
; (500 M E-cycles; the goal is 1,000 M E-cycles per second).
            org  $C000
start       lds  #$01FF
outer       ldx  #$2000
            ldy  #$3000
            ldab #64
            stab $40
loop        ldaa 0,x
            adda #3
            staa 0,x
            ldaa 1,y
            eora #$55
            staa 1,y
            ldd  2,x
            addd #$0101
            std  2,y
            jsr  sub
            bset 5,x,#$01
            brclr 6,y,#$80,skip
            clr  6,y
skip        inx
            iny
            dec  $0040
            bne  loop
            bra  outer
sub         pshx
            ldaa 0,x
            ldab #7
            mul
            ldx  #13
            idiv
            xgdx
            pulx
            std  4,x
            cpd  #$1000
            bls  s1
            ldd  #0
s1          rts
            org  $FFFE
            dc.w start
