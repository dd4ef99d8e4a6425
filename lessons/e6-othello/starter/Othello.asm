;------------------------------------------------------------------------------
; Othello.asm:
;
; Ausgangsprogramm zu Aufgabe E6: findet in Othello-Stellungen alle gültigen
; Züge der Farbe am Zug und gibt sie über die serielle Schnittstelle aus
; (gepacktes Brett mit 16 Byte, Tabelle der gültigen Züge mit 8 Byte).
;
; Für jede Stellung aus Positions.inc eine Zeile, die Züge von A1 bis H8
; (Zeile A..H, dann Spalte 1..8) durch je ein Leerzeichen getrennt, z. B.
; "C4 D3 E6 F5", ohne gültigen Zug "PASS"; jede Zeile endet mit CR LF.
;------------------------------------------------------------------------------

;------------------------------------------------------------------------------
; Register - und Makrodefinitionen
;------------------------------------------------------------------------------

        include trainer11Register.inc


;------------------------------------------------------------------------------
; Definition von Variablen im RAM
;------------------------------------------------------------------------------

RamSection      Section
                org     $0040

ramBegin        equ     *                       ; Anfang des Rams
othBoard        ds.b    16                      ; gepacktes Brett der Stellung
                                                ; (Format siehe Positions.inc)
toMove          ds.b    1                       ; Farbe am Zug: 1 = Schwarz, 0 = Weiß
legalMoves      ds.b    8                       ; gültige Züge: je Zeile A..H ein
                                                ; Byte, Bit k-1 = Spalte k
posPointer      ds.w    1                       ; Adresse der nächsten Stellung
posLeft         ds.b    1                       ; noch auszugebende Stellungen
row             ds.b    1                       ; Feld, das geprüft wird:
col             ds.b    1                       ; Zeile und Spalte (0..7)
dirRow          ds.b    1                       ; Richtung, in die gelaufen wird
dirCol          ds.b    1                       ; (-1, 0, 1)
movesPrinted    ds.b    1                       ; 1 = in dieser Zeile steht ein Zug

RomSection      Section
                org     $C000

                include Utils.inc
                include Positions.inc

                switch  RamSection
ramEnd          equ     *                       ; Ende des Rams


;------------------------------------------------------------------------------
; Konstanten
;------------------------------------------------------------------------------

                switch  RomSection

directions                                      ; die 8 Richtungen (Zeile, Spalte)
        dc.b    -1,-1,-1,0,-1,1                 ; oben links, oben, oben rechts
        dc.b    0,-1,0,1                        ; links, rechts
        dc.b    1,-1,1,0,1,1                    ; unten links, unten, unten rechts
directionsEnd

passMsg dc.b    "PASS",0


;------------------------------------------------------------------------------
; putString:
;
; Gibt einen mit 0 abgeschlossenen Text auf dem Terminal aus.
;
; @param Register x: Adresse des Textes
;------------------------------------------------------------------------------

putString
        psha
        pshx
putStringLoop
        ldaa    0,x
        beq     putStringEnd
        jsr     putChar
        inx
        bra     putStringLoop
putStringEnd
        pulx
        pula
        rts


;------------------------------------------------------------------------------
; findMoves:
;
; Prüft alle 64 Felder und trägt die gültigen Züge in legalMoves ein.
;
; @param othBoard: Das gepackte Brett
; @param toMove: Die Farbe am Zug (1 = Schwarz, 0 = Weiß)
; @return legalMoves: je Zeile ein Byte, Bit k = Spalte k+1 ist ein Zug
;------------------------------------------------------------------------------

findMoves
        ; TODO
        rts


;------------------------------------------------------------------------------
; printMoves:
;
; Gibt die gültigen Züge aus legalMoves als eine Zeile aus, von A1 bis H8,
; durch je ein Leerzeichen getrennt; ohne gültigen Zug "PASS"; dann CR LF.
;
; @param legalMoves: Die gültigen Züge
;------------------------------------------------------------------------------

printMoves
        ; TODO
        rts


;------------------------------------------------------------------------------
; Hauptprogramm: jede Stellung in othBoard kopieren, Züge suchen, ausgeben.
;------------------------------------------------------------------------------

Start
        lds     #$3FFF
        jsr     clrRam

        ldx     #positions
        stx     posPointer
        ldaa    positionCount
        staa    posLeft
        beq     End

nextPosition
        ldx     posPointer
        ldy     #othBoard
        ldab    #16
copyBoard
        ldaa    0,x
        staa    0,y
        inx
        iny
        decb
        bne     copyBoard
        ldaa    0,x                             ; Farbe am Zug
        staa    toMove
        inx
        stx     posPointer

        jsr     findMoves
        jsr     printMoves

        dec     posLeft
        bne     nextPosition

End     nop                                     ; fertig: hier warten
        bra     End


;------------------------------------------------------------------------------
; Vektortabelle
;------------------------------------------------------------------------------
VSection        Section
                org     VRESET                  ; Reset-Vektor
                dc.w    Start                   ; Programm-Startadresse
