;------------------------------------------------------------------------------
; TicTacToe.asm:
;
; Ausgangsprogramm zu Aufgabe E5: Tic-Tac-Toe für 2 Spieler auf dem trainer11,
; mit denselben Tasten und demselben LCD wie Viergewinnt.
; Variablen, Konstanten, Bilder und Texte sind vorgegeben; das Spiel fehlt.
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
; Hauptprogramm
;------------------------------------------------------------------------------

initGame
        psha

        ldaa    #$0C                            ; Löscht das Terminal
        jsr     putChar
        jsr     clrRam                          ; Überschreibt den Ram mit Nullen
        jsr     initSPI
        jsr     initLCD
        jsr     LCDClr
        ; TODO: Titel auf dem Terminal, Cursor, Spieler, Felder und Texte

        pula
        rts

Start
        lds     #$3FFF                          ; Einstiegspunkt des Spieles
        jsr     initGame

mainLoop                                        ; Hauptschleife
        ; TODO: Tasten lesen und darauf reagieren
        bra     mainLoop


;------------------------------------------------------------------------------
; Vektortabelle
;------------------------------------------------------------------------------
VSection        Section
                org     VRESET                  ; Reset-Vektor
                dc.w    Start                   ; Programm-Startadresse
