; A/D in continuous mode: SCAN on AN2; the main loop copies ADR1 to RAM
; forever (a program waiting on an analog input).
ADCTL       equ $30
ADR1        equ $31
OPTION      equ $39
            org $0080
value       ds.b 1
            org $C000
Start       lds  #$7FFF
            ldaa #$80
            staa OPTION
            ldaa #$22           ; SCAN, channel 2
            staa ADCTL
loop        ldaa ADR1
            staa value
            bra  loop
            org  $FFFE
            dc.w Start
