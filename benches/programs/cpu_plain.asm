; The `cpu/plain` program of benches/cpu.rs: firmware-like copying and bit
; tests through X and Y, stack traffic, a short subroutine and a CPX loop;
; no MUL/IDIV (about 4 E-cycles per instruction); it never stops. Time it
; on the board with
;   time hc11lab run benches/programs/cpu_plain.asm --max-cycles 500000000
; (500 M E-cycles; the goal is 1,000 M E-cycles per second).
            org  $C000
start       lds  #$01FF
outer       ldx  #$2000
            ldy  #$3000
loop        ldaa 0,x
            staa 0,y
            inca
            staa 1,x
            brset 0,x,#$01,odd
            bclr 2,y,#$01
odd         ldd  4,x
            std  4,y
            pshx
            pulx
            jsr  sub2
            inx
            iny
            cpx  #$2064
            bne  loop
            bra  outer
sub2        psha
            pula
            rts
            org  $FFFE
            dc.w start
