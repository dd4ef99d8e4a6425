;------------------------------------------------------------------------------
; TicTacToe.asm:
;
; Musterlösung zu Aufgabe E5: Tic-Tac-Toe für 2 Spieler auf dem trainer11,
; mit denselben Tasten und demselben LCD wie Viergewinnt.
;
; Tasten: 1 = Cursor nach links, 3 = nach rechts (über alle 9 Felder, mit
; Umlauf), 0 = Zeichen setzen, 4 = Reset.
; Feldnummern 1..9 zeilenweise von oben links, im Programm Index 0..8.
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
grid            ds.b    9                       ; Die 9 Felder: 0 = leer,
                                                ; $01 = Spieler 1 (X), $10 = Spieler 2 (O)
cursor          ds.b    1                       ; Feld unter dem Cursor (0..8)
player          ds.b    1                       ; Der Spieler der aktuell am Zug ist
                                                ; (1 = Spieler 1, 2 = Spieler 2)
moves           ds.b    1                       ; Anzahl der gesetzten Zeichen
result          ds.b    1                       ; 0 = Spiel läuft, 1/2 = Spieler 1/2
                                                ; hat gewonnen, 3 = Unentschieden
winLine         ds.b    1                       ; Gewinnlinie 1..8 (Reihenfolge wie
                                                ; lineTable), 0 = keine
buttonFlag      ds.b    1                       ; Flag zur Flankenerkennung
                                                ; -> 1 = gedrückt, 0 = nicht gedrückt
timer           ds.b    1                       ; Timer zum entprellen der Tasten
messageShown    ds.b    1                       ; 1 = "Occupied" steht auf dem LCD
fieldMask       ds.b    1                       ; drawField: $FF = Feld invertieren

RomSection      Section
                org     $C000

                include Utils.inc
                include LCDutils.inc

                switch  RamSection
ramEnd          equ     *                       ; Ende des Rams


;------------------------------------------------------------------------------
; Konstanten (Namen wie in Viergewinnt.asm, LCDutils.inc benutzt sie)
;------------------------------------------------------------------------------

                    switch      RomSection
pageCmdMsk          dc.b        %10110000       ; Steuerkommando fürs Display
colCmdMskM          dc.b        %00010000       ; Steuerkommando fürs Display
colCmdMskL          dc.b        %00000000       ; Steuerkommando fürs Display

LCDCols             equ         128             ; Horizontale Pixeln des LCD's
LCDRows             equ         8               ; Vertikalen Bytes des LCD's
boardOffset         equ         36              ; Spalte der Nachrichten in Zeile 6
                                                ; (drawWinner)
gridPage            equ         2               ; LCD-Zeile der obersten Feldreihe
gridColumn          equ         52              ; LCD-Spalte des linken Feldes
messagePage         equ         7               ; LCD-Zeile für "Occupied"

;------------------------------------------------------------------------------
; Die 8 Gewinnlinien (Feldindizes), Reihenfolge wie die Konstanten
; WINNERLINE123 .. WINNERLINE357 im Tutorial: winLine = Nummer der Linie.
;------------------------------------------------------------------------------

lineTable
        dc.b    0,1,2                           ; 1: Felder 1 2 3
        dc.b    3,4,5                           ; 2: Felder 4 5 6
        dc.b    6,7,8                           ; 3: Felder 7 8 9
        dc.b    0,3,6                           ; 4: Felder 1 4 7
        dc.b    1,4,7                           ; 5: Felder 2 5 8
        dc.b    2,5,8                           ; 6: Felder 3 6 9
        dc.b    0,4,8                           ; 7: Felder 1 5 9
        dc.b    2,4,6                           ; 8: Felder 3 5 7
lineCount           equ         8

;------------------------------------------------------------------------------
; Bilder der Felder (8 Byte, wie die Zellen von Viergewinnt): leer, X, O
;------------------------------------------------------------------------------

cellEmpty
        dc.b    $FF,$81,$81,$81,$81,$81,$81,$FF
cellX
        dc.b    $FF,$81,$A5,$99,$99,$A5,$81,$FF
cellO
        dc.b    $FF,$81,$99,$A5,$A5,$99,$81,$FF

;------------------------------------------------------------------------------
; Konstanten für Textausgabe auf dem LCD
; der erste Wert jeder Konstante repräsentiert deren Länge in Byte
;------------------------------------------------------------------------------

turnText
        dc.b    21,$02,$7E,$02,$00              ; T
        dc.b    $3C,$40,$40,$7C,$00             ; u
        dc.b    $7C,$08,$04,$08,$00             ; r
        dc.b    $7C,$08,$04,$78,$00             ; n
        dc.b    $28,$00                         ; :

playerText
        dc.b    30,$7E,$12,$12,$0C,$00          ; P
        dc.b    $02,$7E,$00                     ; l
        dc.b    $20,$54,$54,$78,$00             ; a
        dc.b    $1C,$A0,$A0,$7C,$00             ; y
        dc.b    $38,$54,$54,$48,$00             ; e
        dc.b    $7C,$08,$04,$08,$00             ; r
        dc.b    $00,$00

oneText
        dc.b 4,$04,$7E,$00,$00                  ; 1

twoText
        dc.b 5,$64,$52,$52,$4C,$00              ; 2

wonText
        dc.b 18,$00,$00,$3C,$40,$20
        dc.b $40,$3C,$00                        ; w
        dc.b $38,$44,$44,$38,$00                ; o
        dc.b $7C,$08,$04,$78,$00                ; n

drawGameText
        dc.b    21,$7E,$42,$42,$3C,$00          ; D
        dc.b    $7C,$08,$04,$08,$00             ; r
        dc.b    $20,$54,$54,$78,$00             ; a
        dc.b    $3C,$40,$20,$40,$3C,$00         ; w

occupiedText
        dc.b    37,$3C,$42,$42,$3C,$00          ; O
        dc.b    $38,$44,$44,$28,$00             ; c
        dc.b    $38,$44,$44,$28,$00             ; c
        dc.b    $3C,$40,$40,$7C,$00             ; u
        dc.b    $FC,$24,$24,$18,$00             ; p
        dc.b    $7A,$00                         ; i
        dc.b    $38,$54,$54,$48,$00             ; e
        dc.b    $38,$44,$44,$7E,$00             ; d

;------------------------------------------------------------------------------
; Texte für das Terminal (mit 0 abgeschlossen)
;------------------------------------------------------------------------------

titleMsg            dc.b        "Tic-Tac-Toe",13,10,0
occupiedMsg         dc.b        "Occupied",13,10,0
wonMsg1             dc.b        "Player 1 won",13,10,0
wonMsg2             dc.b        "Player 2 won",13,10,0
drawMsg             dc.b        "Draw",13,10,0


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
; drawField:
;
; Zeichnet ein Feld auf den LCD: das Bild nach dem Inhalt von grid
; (cellEmpty, cellX, cellO), das Feld unter dem Cursor invertiert.
; Feld i steht in LCD-Zeile gridPage + i / 3 ab Spalte gridColumn + 8 * (i mod 3).
;
; @param Akku a: Feldindex (0..8)
;------------------------------------------------------------------------------

drawField
        psha
        pshb
        pshx
        pshy

        ; Bild auswählen: Y = Adresse des Bildes
        ldx     #grid
        tab
        abx
        ldab    0,x
        ldy     #cellEmpty
        cmpb    #$01
        bne     drawFieldNotX
        ldy     #cellX
drawFieldNotX
        cmpb    #$10
        bne     drawFieldMask
        ldy     #cellO

drawFieldMask
        ldab    #0                              ; Maske: $FF unter dem Cursor
        cmpa    cursor
        bne     drawFieldSetMask
        ldab    #$FF
drawFieldSetMask
        stab    fieldMask

        ; Zeile und Spalte berechnen
        tab
        clra
        ldx     #3
        idiv                                    ; X = Index / 3, D = Index mod 3
        pshb
        xgdx
        tba
        adda    #gridPage
        jsr     LCDSetRow
        pula                                    ; Index mod 3
        lsla                                    ; * 8
        lsla
        lsla
        adda    #gridColumn                     ; A = LCD-Spalte

        ldab    #8                              ; 8 Bytes
drawFieldLoop
        jsr     LCDSetCol
        psha
        ldaa    0,y
        eora    fieldMask
        jsr     LCDdata
        pula
        iny
        inca
        decb
        bne     drawFieldLoop

        puly
        pulx
        pulb
        pula
        rts


;------------------------------------------------------------------------------
; drawGrid:
;
; Zeichnet alle 9 Felder.
;------------------------------------------------------------------------------

drawGrid
        psha
        ldaa    #0
drawGridLoop
        jsr     drawField
        inca
        cmpa    #9
        bne     drawGridLoop
        pula
        rts


;------------------------------------------------------------------------------
; clearMessage:
;
; Löscht die Nachricht "Occupied", wenn sie auf dem LCD steht.
;
; @param messageShown: 1 = Nachricht steht auf dem LCD
;------------------------------------------------------------------------------

clearMessage
        psha
        tst     messageShown
        beq     clearMessageEnd
        ldaa    #messagePage
        jsr     LCDSetRow
        jsr     LCDClrRow
        clr     messageShown
clearMessageEnd
        pula
        rts


;------------------------------------------------------------------------------
; moveCursorLeft / moveCursorRight:
;
; Bewegt den Cursor ein Feld nach links / rechts, von Feld 1 nach 9 und
; von 9 nach 1 mit Umlauf, und zeichnet das alte und das neue Feld.
;
; @param cursor: Feld unter dem Cursor
;------------------------------------------------------------------------------

moveCursorLeft
        psha
        pshb
        jsr     clearMessage
        ldab    cursor
        decb
        bpl     moveCursorTo                    ; -1: Umlauf nach 8
        ldab    #8
        bra     moveCursorTo

moveCursorRight
        psha
        pshb
        jsr     clearMessage
        ldab    cursor
        incb
        cmpb    #9
        bne     moveCursorTo
        ldab    #0                              ; 9: Umlauf nach 0

moveCursorTo                                    ; B = neues Feld; A und B des
        ldaa    cursor                          ; Aufrufers liegen auf dem Stack
        stab    cursor
        jsr     drawField                       ; altes Feld ohne Cursor
        tba
        jsr     drawField                       ; neues Feld mit Cursor
        pulb
        pula
        rts


;------------------------------------------------------------------------------
; placeMark:
;
; Setzt das Zeichen des Spielers am Zug in das Feld unter dem Cursor. Ist
; das Feld belegt, steht "Occupied" auf dem LCD und dem Terminal und der
; Spieler bleibt am Zug. Sonst: Zug auf dem Terminal ausgeben (z. B. "X5"),
; Gewinn und Unentschieden prüfen, Spieler wechseln.
;
; @param cursor: Das Feld
; @param player: Der Spieler am Zug
;------------------------------------------------------------------------------

placeMark
        psha
        pshb
        pshx

        jsr     clearMessage
        ldx     #grid
        ldab    cursor
        abx
        tst     0,x
        beq     placeMarkFree

        ldaa    #messagePage                    ; Feld belegt
        ldab    #boardOffset
        pshx
        ldx     #occupiedText
        jsr     drawText
        ldx     #occupiedMsg
        jsr     putString
        pulx
        ldaa    #1
        staa    messageShown
        bra     placeMarkEnd

placeMarkFree
        ldaa    #$01                            ; X für Spieler 1
        ldab    #'X'
        psha
        ldaa    player
        cmpa    #1
        pula
        beq     placeMarkStore
        ldaa    #$10                            ; O für Spieler 2
        ldab    #'O'
placeMarkStore
        staa    0,x
        inc     moves

        tba                                     ; Zug ausgeben: Zeichen, Feldnummer
        jsr     putChar
        ldaa    cursor
        adda    #'1'
        jsr     putChar
        jsr     crlf

        ldaa    cursor
        jsr     drawField

        jsr     checkLines
        tst     result
        bne     placeMarkEnd

        ldaa    moves                           ; alle 9 Felder belegt:
        cmpa    #9                              ; Unentschieden
        bne     placeMarkNext
        ldaa    #3
        staa    result
        jsr     LCDClr
        jsr     drawGrid
        ldaa    #6
        ldab    #boardOffset
        ldx     #drawGameText
        jsr     drawText
        ldx     #drawMsg
        jsr     putString
        bra     placeMarkEnd

placeMarkNext
        ldaa    player                          ; Spielerwechsel
        eora    #3                              ; 1 <-> 2
        staa    player
        jsr     drawPlayer

placeMarkEnd
        pulx
        pulb
        pula
        rts


;------------------------------------------------------------------------------
; checkLines:
;
; Prüft die 8 Gewinnlinien: die Summe der drei Felder ist $03, wenn alle
; drei X sind, und $30, wenn alle drei O sind. Bei einem Sieg werden result
; und winLine gesetzt und "Player N won" angezeigt (LCD und Terminal).
;
; @return result: Spieler 1 oder 2 bei einem Sieg, sonst unverändert 0
; @return winLine: Nummer der ersten vollen Linie (1..8)
;------------------------------------------------------------------------------

checkLines
        psha
        pshb
        pshx
        pshy

        ldy     #lineTable
        ldab    #1                              ; Nummer der Linie
checkLinesLoop
        ldx     #grid                           ; erstes Feld
        pshb
        ldab    0,y
        abx
        ldaa    0,x
        ldx     #grid                           ; zweites Feld
        ldab    1,y
        abx
        adda    0,x
        ldx     #grid                           ; drittes Feld
        ldab    2,y
        abx
        adda    0,x
        pulb
        cmpa    #$03
        beq     checkLinesWon
        cmpa    #$30
        beq     checkLinesWon
        iny
        iny
        iny
        incb
        cmpb    #lineCount+1
        bne     checkLinesLoop
        bra     checkLinesEnd

checkLinesWon
        stab    winLine
        ldaa    player
        staa    result
        jsr     LCDClr                          ; wie playerwon in Viergewinnt
        jsr     drawGrid
        jsr     drawWinner
        ldx     #wonMsg1
        cmpa    #1
        beq     checkLinesMsg
        ldx     #wonMsg2
checkLinesMsg
        jsr     putString

checkLinesEnd
        puly
        pulx
        pulb
        pula
        rts


;------------------------------------------------------------------------------
; readInput:
;
; Liest die Tasten (PIO_B) und reagiert darauf, entprellt wie in
; Viergewinnt (Input.inc): nach einer Taste wird erst wieder gelesen, wenn
; alle Tasten losgelassen sind.
;------------------------------------------------------------------------------

readInput
        psha
        pshb

        ldaa    PIO_B                           ; Lese Button byte ein
        ldab    buttonFlag
        cmpb    #1                              ; 1 Wenn Taste gedrückt
        beq     testButtonRelease

        cmpa    #%11101111                      ; Taste 4: Reset
        bne     readButton0
        jsr     initGame
        ldaa    #1                              ; nach initGame (clrRam) setzen
        staa    buttonFlag
        bra     readInputEnd

readButton0
        tst     result                          ; Spiel vorbei: nur Reset
        bne     readInputEnd

        cmpa    #%11111110                      ; Taste 0: Zeichen setzen
        bne     readButton1
        jsr     setFlag
        jsr     placeMark
        bra     readInputEnd

readButton1
        cmpa    #%11111101                      ; Taste 1: nach links
        bne     readButton3
        jsr     setFlag
        jsr     moveCursorLeft
        bra     readInputEnd

readButton3
        cmpa    #%11110111                      ; Taste 3: nach rechts
        bne     readInputEnd
        jsr     setFlag
        jsr     moveCursorRight
        bra     readInputEnd

testButtonRelease
        inc     timer                           ; entprellen mit einem Timer
        ldab    timer
        cmpb    #250
        bne     readInputEnd
        clr     timer
        cmpa    #%11111111                      ; alle Tasten losgelassen?
        bne     readInputEnd
        clr     buttonFlag

readInputEnd
        pulb
        pula
        rts


;------------------------------------------------------------------------------
; setFlag:
;
; Merkt, dass eine Taste genommen wurde (Flankenerkennung).
;------------------------------------------------------------------------------

setFlag
        psha
        ldaa    #1
        staa    buttonFlag
        pula
        rts


;------------------------------------------------------------------------------
; Hauptprogramm
;------------------------------------------------------------------------------

initGame
        psha
        pshx

        ldaa    #$0C                            ; Löscht das Terminal
        jsr     putChar
        ldx     #titleMsg
        jsr     putString
        jsr     clrRam                          ; Überschreibt den Ram mit Nullen
        jsr     initSPI
        jsr     initLCD
        jsr     LCDClr
        ldaa    #4                              ; Cursor auf das mittlere Feld (5)
        staa    cursor
        ldaa    #1
        staa    player                          ; Spieler 1 beginnt
        jsr     drawGrid
        jsr     showText
        jsr     drawPlayer

        pulx
        pula
        rts

Start
        lds     #$3FFF                          ; Einstiegspunkt des Spieles
        jsr     initGame

mainLoop                                        ; Hauptschleife
        jsr     readInput
        bra     mainLoop


;------------------------------------------------------------------------------
; Vektortabelle
;------------------------------------------------------------------------------
VSection        Section
                org     VRESET                  ; Reset-Vektor
                dc.w    Start                   ; Programm-Startadresse
