;------------------------------------------------------------------------------
; Dame.asm:
;
; Ausgangsprogramm zu Aufgabe E7: soll in Dame-Stellungen alle erlaubten
; Züge der Seite am Zug erzeugen und über die serielle Schnittstelle ausgeben
; (die Aufgabe steht in task.de.md).
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
                                        ; (eigene Variablen hier ergänzen)

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
        ; TODO
        ldaa    #3
        rts


;------------------------------------------------------------------------------
; findMoves:
;
; Gibt alle erlaubten Züge der Seite am Zug als eine Zeile aus (Format in der
; Aufgabe) und setzt moveCount und mustCapture.
;
; @param board, toMove: die Stellung
; @return moveCount: Anzahl der Züge, mustCapture: 1 = es sind Sprünge
;------------------------------------------------------------------------------

findMoves
        ; TODO: Sprünge suchen (Schlagzwang, Mehrfachsprünge), sonst einfache
        ; Züge; bis dahin gibt es für jede Stellung NONE aus.
        clr     moveCount
        clr     mustCapture
        ldx     #noneMsg
        jsr     putString
        jsr     crlf
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
