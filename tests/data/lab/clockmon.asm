; Clock monitor lab: with OPTION.CME set, STOP stops the E clock the monitor
; watches, and the monitor resets the chip through $FFFC. The first boot
; sets CME and stops; the handler notes $C3 at $81 and restarts; the second
; boot (CME is clear again after the reset) ends in `done`.
OPTION      equ $39
            org $0080
boots       ds.b 1              ; RAM survives the reset
seen        ds.b 1
            org $C000
Start       lds  #$7FFF         ; 3
            inc  boots          ; 6
            ldaa boots          ; 3 (direct)
            cmpa #1             ; 2
            bne  done           ; 3
            ldaa #$08           ; 2  CME
            staa OPTION         ; 3
            tpa                 ; 2
            anda #$7F           ; 2  clear S: STOP stops
            tap                 ; 2
            stop                ; 2
            bra  *              ; never reached
done        bra  done
cmfail      ldaa #$C3
            staa seen
            bra  Start
            org  $FFFC
            dc.w cmfail
            org  $FFFE
            dc.w Start
