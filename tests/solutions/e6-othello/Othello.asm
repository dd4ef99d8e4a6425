;------------------------------------------------------------------------------
; Othello.asm:
;
; Musterlösung zu Aufgabe E6: findet in Othello-Stellungen alle gültigen
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
; cellState:
;
; Liest ein Feld aus dem gepackten Brett: Zeile r steht in den Bytes 2r
; (Spalten 0..3) und 2r+1 (Spalten 4..7); für die Spalte k einer Hälfte ist
; Bit k das Belegt-Bit und Bit k+4 die Farbe (1 = schwarz).
;
; @param Akku a: Zeile (0..7)
; @param Akku b: Spalte (0..7)
; @param toMove: Farbe am Zug
; @return Akku a: 0 = leer, 1 = eigener Stein, 2 = gegnerischer Stein
;------------------------------------------------------------------------------

cellState
        pshb
        pshx

        ldx     #othBoard
        lsla                                    ; 2 * Zeile
        cmpb    #4                              ; Spalten 4..7 im zweiten Byte
        blo     cellStateByte
        inca
        subb    #4
cellStateByte
        pshb                                    ; Bitnummer (0..3) merken
        tab
        abx                                     ; X = Adresse des Bytes
        pulb

        ldaa    #1                              ; Maske des Belegt-Bits
cellStateMask
        tstb
        beq     cellStateTest
        lsla
        decb
        bra     cellStateMask

cellStateTest
        tab
        andb    0,x                             ; Feld belegt?
        beq     cellStateEmpty
        tab                                     ; Maske des Farb-Bits
        lslb
        lslb
        lslb
        lslb
        andb    0,x
        beq     cellStateColour                 ; B = 0: weiß
        ldab    #1                              ; B = 1: schwarz
cellStateColour
        cmpb    toMove
        beq     cellStateOwn
        ldaa    #2
        bra     cellStateEnd
cellStateOwn
        ldaa    #1
        bra     cellStateEnd
cellStateEmpty
        ldaa    #0

cellStateEnd
        pulx
        pulb
        rts


;------------------------------------------------------------------------------
; checkDirection:
;
; Läuft vom Feld (row, col) in eine Richtung: schließt ein eigener Stein
; hinter mindestens einem gegnerischen Stein eine Reihe ein, ist das Feld
; in dieser Richtung ein gültiger Zug.
;
; @param row, col: Das Feld
; @param dirRow, dirCol: Die Richtung
; @return Akku a: 1 = eingeschlossen, 0 = nicht
;------------------------------------------------------------------------------

checkDirection
        pshb
        pshx

        ldx     #0                              ; Zähler gegnerischer Steine
        ldaa    row
        ldab    col
checkDirectionLoop
        adda    dirRow
        addb    dirCol
        cmpa    #8                              ; ausserhalb (auch -1 = $FF)
        bhs     checkDirectionFalse
        cmpb    #8
        bhs     checkDirectionFalse

        psha
        jsr     cellState
        cmpa    #2                              ; gegnerischer Stein: weiter
        bne     checkDirectionOther
        pula
        inx
        bra     checkDirectionLoop

checkDirectionOther
        cmpa    #1                              ; eigener Stein?
        pula
        bne     checkDirectionFalse
        cpx     #0                              ; mindestens ein gegnerischer
        beq     checkDirectionFalse             ; Stein dazwischen
        ldaa    #1
        bra     checkDirectionEnd

checkDirectionFalse
        ldaa    #0

checkDirectionEnd
        pulx
        pulb
        rts


;------------------------------------------------------------------------------
; isLegal:
;
; Prüft, ob das Feld (row, col) ein gültiger Zug für die Farbe am Zug ist:
; das Feld ist leer und in mindestens einer der 8 Richtungen wird eine Reihe
; gegnerischer Steine eingeschlossen.
;
; @param row, col: Das Feld
; @return Akku a: 1 = gültiger Zug, 0 = nicht
;------------------------------------------------------------------------------

isLegal
        pshb
        pshx

        ldaa    row
        ldab    col
        jsr     cellState
        cmpa    #0                              ; Feld muss leer sein
        bne     isLegalFalse

        ldx     #directions
isLegalLoop
        ldaa    0,x
        staa    dirRow
        ldaa    1,x
        staa    dirCol
        jsr     checkDirection
        cmpa    #1
        beq     isLegalEnd                      ; A = 1
        inx
        inx
        cpx     #directionsEnd
        bne     isLegalLoop

isLegalFalse
        ldaa    #0

isLegalEnd
        pulx
        pulb
        rts


;------------------------------------------------------------------------------
; findMoves:
;
; Prüft alle 64 Felder und trägt die gültigen Züge in legalMoves ein.
;
; @return legalMoves: je Zeile ein Byte, Bit k = Spalte k+1 ist ein Zug
;------------------------------------------------------------------------------

findMoves
        psha
        pshb
        pshx

        ldx     #legalMoves
        clr     row
findMovesRow
        clr     0,x
        clr     col
        ldab    #1                              ; Bit der Spalte
findMovesCol
        jsr     isLegal
        cmpa    #1
        bne     findMovesNext
        pshb
        orab    0,x
        stab    0,x
        pulb
findMovesNext
        lslb
        inc     col
        ldaa    col
        cmpa    #8
        bne     findMovesCol

        inx
        inc     row
        ldaa    row
        cmpa    #8
        bne     findMovesRow

        pulx
        pulb
        pula
        rts


;------------------------------------------------------------------------------
; printMove:
;
; Gibt einen Zug aus ("C4"), mit einem Leerzeichen davor, wenn in der Zeile
; schon ein Zug steht.
;
; @param row: Die Zeile (0..7)
; @param Akku a: Die Spalte als Zeichen ('1'..'8')
;------------------------------------------------------------------------------

printMove
        psha

        tst     movesPrinted
        beq     printMoveFirst
        jsr     space
printMoveFirst
        ldaa    row
        adda    #'A'
        jsr     putChar
        pula
        psha
        jsr     putChar
        ldaa    #1
        staa    movesPrinted

        pula
        rts


;------------------------------------------------------------------------------
; printMoves:
;
; Gibt die gültigen Züge aus legalMoves als eine Zeile aus, von A1 bis H8;
; ohne gültigen Zug "PASS".
;
; @param legalMoves: Die gültigen Züge
;------------------------------------------------------------------------------

printMoves
        psha
        pshb
        pshx

        clr     movesPrinted
        clr     row
printMovesRow
        ldx     #legalMoves
        ldab    row
        abx
        ldab    0,x                             ; Bits der Zeile
        ldaa    #'1'                            ; Spalte als Zeichen
printMovesCol
        lsrb                                    ; Bit der Spalte ins Carry
        bcc     printMovesNext
        jsr     printMove
printMovesNext
        inca
        cmpa    #'9'
        bne     printMovesCol

        inc     row
        ldaa    row
        cmpa    #8
        bne     printMovesRow

        tst     movesPrinted
        bne     printMovesEnd
        ldx     #passMsg
        jsr     putString

printMovesEnd
        jsr     crlf

        pulx
        pulb
        pula
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
