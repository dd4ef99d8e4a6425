; IRQ/XIRQ from a script at a given cycle (`irq:low@5000`, `xirq:low@5000`).
; Boot: with $81 = 0 the program unmasks IRQ (I clear) and spins; otherwise
; it unmasks XIRQ only (X clear, I set) and spins. Either handler notes its
; pin at $80 and ends in `done` with both masks set.
            org $C000
Start       lds  #$7FFF         ; 3
            ldaa $81            ; 3 (direct)
            bne  usexirq        ; 3
            cli                 ; 2
spin        bra  spin           ; 3 per pass, from cycle 11
usexirq     tpa
            anda #$BF           ; clear X (I stays set)
            tap
spinx       bra  spinx
irq         ldaa #$01
            staa $80
            sei
done        bra  done
xirq        ldaa #$02
            staa $80
            sei
            bra  done
            org  $FFF2
            dc.w irq
            org  $FFF4
            dc.w xirq
            org  $FFFE
            dc.w Start
