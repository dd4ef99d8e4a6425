;------------------------------------------------------------------------------
; Dame.asm:
;
; Musterlösung zu Aufgabe E7: erzeugt in Dame-Stellungen alle erlaubten Züge
; der Seite am Zug und gibt sie über die serielle Schnittstelle aus.
;
; Regeln (nur einfache Steine, keine Damen): ein Stein zieht diagonal ein
; Feld vorwärts auf ein leeres Feld; er schlägt, indem er diagonal vorwärts
; über einen gegnerischen Stein auf das leere Feld dahinter springt, und
; springt weiter, solange das geht. Kann die Seite am Zug schlagen, muss sie
; schlagen (Schlagzwang).
;
; Ausgabe je Stellung eine Zeile: die Züge in der Reihenfolge der Felder
; (Reihe 8 zuerst, in einer Reihe von links nach rechts), je Stein erst
; nach links, dann nach rechts; "c3-d4" für einen Zug, "a3xc5xe7" für einen
; Sprung über zwei Steine; ohne Zug "NONE"; Züge durch ein Leerzeichen
; getrennt, am Ende CR LF.
;------------------------------------------------------------------------------

        include trainer11Register.inc

;------------------------------------------------------------------------------
; Variablen im RAM
;------------------------------------------------------------------------------

RamSection      Section
                org     $0040

ramBegin        equ     *
board           ds.b    8               ; gepacktes Brett (Format: Positions.inc)
toMove          ds.b    1               ; am Zug: 1 = Weiß, 2 = Schwarz
moveCount       ds.b    1               ; Anzahl der ausgegebenen Züge
mustCapture     ds.b    1               ; 1 = die Züge sind Sprünge (Schlagzwang)
posPointer      ds.w    1               ; Adresse der nächsten Stellung
posLeft         ds.b    1               ; noch zu bearbeitende Stellungen
fwd             ds.b    1               ; Reihenschritt vorwärts: -1 Weiß, +1 Schwarz
enemy           ds.b    1               ; Steinwert des Gegners
curRow          ds.b    1               ; Feld des springenden Steins
curCol          ds.b    1               ; (curRow und curCol direkt hintereinander)
dc              ds.b    1               ; Spaltenschritt des aktuellen Versuchs
pathLen         ds.b    1               ; Felder im Sprungweg
path            ds.b    8               ; Sprungweg: je Feld Reihe, Spalte

RomSection      Section
                org     $C000

                include Utils.inc
                include Positions.inc

                switch  RamSection
ramEnd          equ     *

                switch  RomSection

noneMsg dc.b    "NONE",0


;------------------------------------------------------------------------------
; putString:
;
; Gibt einen mit 0 abgeschlossenen Text aus.
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
; readSq:
;
; Liest ein Feld des gepackten Bretts.
;
; @param Akku a: Reihe (0 = Reihe 8 oben ... 7 = Reihe 1 unten)
; @param Akku b: Spalte (0 = a ... 7 = h)
; @return Akku a: 0 = leer, 1 = weiß, 2 = schwarz,
;                 3 = außerhalb des Bretts oder helles Feld
;------------------------------------------------------------------------------

readSq
        pshb
        pshx
        cmpa    #8                      ; vorzeichenlos: -1 ($FF) ist auch
        bhs     readSqOff               ; außerhalb
        cmpb    #8
        bhs     readSqOff
        psha
        aba                             ; Reihe + Spalte gerade: helles Feld
        anda    #1
        pula                            ; (pula ändert die Flags nicht)
        beq     readSqOff

        ldx     #board
        pshb
        tab
        abx                             ; x = board + Reihe
        pulb
        ldaa    0,x
        lsrb                            ; Feld k = Spalte / 2
readSqShift
        tstb
        beq     readSqMask
        lsra                            ; je Feld 2 Bit weiter
        lsra
        decb
        bra     readSqShift
readSqMask
        anda    #%00000011
        bra     readSqEnd
readSqOff
        ldaa    #3
readSqEnd
        pulx
        pulb
        rts


;------------------------------------------------------------------------------
; printSq:
;
; Gibt den Namen eines Felds aus, z. B. "c3".
;
; @param Akku a: Reihe (0..7, 0 = Reihe 8)
; @param Akku b: Spalte (0..7, 0 = a)
;------------------------------------------------------------------------------

printSq
        psha
        pshb
        psha
        tba
        adda    #'a'
        jsr     putChar
        pula
        nega                            ; '8' - Reihe
        adda    #'8'
        jsr     putChar
        pulb
        pula
        rts


;------------------------------------------------------------------------------
; startMove:
;
; Vor jedem Zug außer dem ersten ein Leerzeichen; zählt den Zug.
;------------------------------------------------------------------------------

startMove
        tst     moveCount
        beq     startMoveCount
        jsr     space
startMoveCount
        inc     moveCount
        rts


;------------------------------------------------------------------------------
; pathPush:
;
; Hängt ein Feld an den Sprungweg an.
;
; @param Akku a: Reihe
; @param Akku b: Spalte
;------------------------------------------------------------------------------

pathPush
        pshb
        pshx
        pshb
        ldab    pathLen
        aslb                            ; 2 Byte je Feld
        ldx     #path
        abx
        pulb
        staa    0,x
        stab    1,x
        inc     pathLen
        pulx
        pulb
        rts


;------------------------------------------------------------------------------
; printPath:
;
; Gibt den Sprungweg als einen Zug aus, z. B. "a3xc5xe7".
;------------------------------------------------------------------------------

printPath
        psha
        pshb
        pshx
        jsr     startMove
        ldx     #path
        ldaa    pathLen
printPathLoop
        psha
        ldaa    0,x
        ldab    1,x
        jsr     printSq
        pula
        inx
        inx
        deca
        beq     printPathEnd
        psha
        ldaa    #'x'
        jsr     putChar
        pula
        bra     printPathLoop
printPathEnd
        pulx
        pulb
        pula
        rts


;------------------------------------------------------------------------------
; tryJump:
;
; Versucht von (curRow, curCol) einen Sprung vorwärts in Spaltenrichtung b.
; Geht er, kommt das Zielfeld in den Sprungweg, und jumpFrom sucht von dort
; weiter; danach werden Weg und Feld wiederhergestellt.
;
; @param Akku b: Spaltenschritt (-1 = links, 1 = rechts)
; @return Akku a: 1 = gesprungen, 0 = kein Sprung in diese Richtung
;------------------------------------------------------------------------------

tryJump
        pshb
        pshx
        stab    dc
        ldaa    curRow                  ; gegnerischer Stein daneben?
        adda    fwd
        ldab    curCol
        addb    dc
        jsr     readSq
        cmpa    enemy
        bne     tryJumpNo
        ldaa    curRow                  ; leeres Feld dahinter?
        adda    fwd
        adda    fwd
        ldab    curCol
        addb    dc
        addb    dc
        psha
        jsr     readSq
        tsta
        pula
        bne     tryJumpNo

        ldx     curRow                  ; Feld des Steins merken (2 Byte)
        pshx
        staa    curRow
        stab    curCol
        jsr     pathPush
        jsr     jumpFrom                ; weiterspringen
        dec     pathLen
        pulx
        stx     curRow
        ldaa    #1
        bra     tryJumpEnd
tryJumpNo
        clra
tryJumpEnd
        pulx
        pulb
        rts


;------------------------------------------------------------------------------
; jumpFrom:
;
; Sucht von (curRow, curCol) aus weitere Sprünge, erst nach links, dann nach
; rechts. Geht keiner mehr und ist schon gesprungen worden, ist der Weg ein
; vollständiger Zug und wird ausgegeben.
;------------------------------------------------------------------------------

jumpFrom
        psha
        pshb
        pshx
        ldab    #-1
        jsr     tryJump
        psha                            ; nach links gesprungen?
        ldab    #1
        jsr     tryJump
        tsx
        oraa    0,x                     ; in eine der Richtungen gesprungen?
        ins
        tsta
        bne     jumpFromEnd
        ldaa    pathLen
        cmpa    #2                      ; mindestens ein Sprung
        blo     jumpFromEnd
        jsr     printPath
jumpFromEnd
        pulx
        pulb
        pula
        rts


;------------------------------------------------------------------------------
; simpleMoves:
;
; Gibt die einfachen Züge des Steins auf (curRow, curCol) aus, erst nach
; links, dann nach rechts.
;------------------------------------------------------------------------------

simpleMoves
        psha
        pshb
        ldab    #-1
        jsr     simpleMove
        ldab    #1
        jsr     simpleMove
        pulb
        pula
        rts


;------------------------------------------------------------------------------
; simpleMove:
;
; Ein Zug von (curRow, curCol) nach (curRow + fwd, curCol + b), wenn das
; Feld leer ist.
;
; @param Akku b: Spaltenschritt (-1 = links, 1 = rechts)
;------------------------------------------------------------------------------

simpleMove
        psha
        pshb
        addb    curCol
        ldaa    curRow
        adda    fwd
        psha
        jsr     readSq
        tsta
        pula
        bne     simpleMoveEnd
        jsr     startMove
        psha                            ; Ziel
        pshb
        ldaa    curRow
        ldab    curCol
        jsr     printSq
        ldaa    #'-'
        jsr     putChar
        pulb
        pula
        jsr     printSq
simpleMoveEnd
        pulb
        pula
        rts


;------------------------------------------------------------------------------
; findMoves:
;
; Gibt alle erlaubten Züge der Seite am Zug als eine Zeile aus: erst alle
; Sprünge; gibt es keinen, die einfachen Züge; gibt es auch die nicht, NONE.
;
; @param board, toMove: die Stellung
; @return moveCount: Anzahl der Züge, mustCapture: 1 = es sind Sprünge
;------------------------------------------------------------------------------

findMoves
        psha
        pshb
        pshx
        clr     moveCount
        clr     mustCapture
        ldaa    toMove                  ; Weiß zieht nach oben, Schwarz nach unten
        cmpa    #1
        bne     findMovesBlack
        ldaa    #-1
        staa    fwd
        ldaa    #2
        staa    enemy
        bra     findJumps
findMovesBlack
        ldaa    #1
        staa    fwd
        ldaa    #1
        staa    enemy

findJumps
        clra                            ; Reihe
findJumpsRow
        clrb                            ; Spalte
findJumpsCol
        psha
        jsr     readSq
        cmpa    toMove                  ; ein eigener Stein?
        pula
        bne     findJumpsNext
        staa    curRow
        stab    curCol
        clr     pathLen
        jsr     pathPush                ; Start des Sprungwegs
        jsr     jumpFrom
findJumpsNext
        incb
        cmpb    #8
        bne     findJumpsCol
        inca
        cmpa    #8
        bne     findJumpsRow

        tst     moveCount               ; Schlagzwang
        beq     findSimple
        ldaa    #1
        staa    mustCapture
        bra     findMovesEnd

findSimple
        clra
findSimpleRow
        clrb
findSimpleCol
        psha
        jsr     readSq
        cmpa    toMove
        pula
        bne     findSimpleNext
        staa    curRow
        stab    curCol
        jsr     simpleMoves
findSimpleNext
        incb
        cmpb    #8
        bne     findSimpleCol
        inca
        cmpa    #8
        bne     findSimpleRow

        tst     moveCount
        bne     findMovesEnd
        ldx     #noneMsg
        jsr     putString
findMovesEnd
        jsr     crlf
        pulx
        pulb
        pula
        rts


;------------------------------------------------------------------------------
; Hauptprogramm: auf Taste 0 warten, dann jede Stellung nach board kopieren
; und ihre Züge ausgeben.
;------------------------------------------------------------------------------

Start
        lds     #$3FFF
        jsr     clrRam

waitKey                                 ; erst auf Taste 0 hin auswerten
        ldaa    PIO_B
        anda    #%00000001              ; Bit 0 = Taste 0 (0 = gedrückt)
        bne     waitKey

        ldx     #positions
        stx     posPointer
        ldaa    positionCount
        staa    posLeft
        beq     End

nextPosition
        ldx     posPointer
        ldy     #board
        ldab    #8
copyBoard
        ldaa    0,x
        staa    0,y
        inx
        iny
        decb
        bne     copyBoard
        ldaa    0,x                     ; am Zug
        staa    toMove
        inx
        stx     posPointer

        jsr     findMoves
positionDone                            ; eine Stellung fertig (Haltepunkt der Prüfungen)
        dec     posLeft
        bne     nextPosition

End     bra     End                     ; fertig: hier warten


;------------------------------------------------------------------------------
; Vektortabelle
;------------------------------------------------------------------------------
VSection        Section
                org     VRESET
                dc.w    Start
        switch RomSection
