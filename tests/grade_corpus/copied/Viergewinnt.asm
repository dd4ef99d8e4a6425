;------------------------------------------------------------------------------
; Viergewinnt.asm:
;
; @Author: Michael Persiehl (tinf102296), Guillaume Fournier-Mayer (tinf101922)
;
; Implementiert das Spiel "4-Gewinnt" für 2 Spieler auf dem Motorola 68HC11.
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

ramBegin    equ     *
board       ds.b    boardSize
cellAddress     ds.w    1

cursorColumn    ds.b    1



debugCellAdress ds.w    1



buttonFlag      ds.b    1


timer       ds.b    1
player      ds.b    1


coordx      ds.b    1
coordy      ds.b    1
xoffset     ds.b    1
yoffset     ds.b    1
playerWonFlag   ds.b    1


RomSection      Section
        org     $C000

        include Utils.inc
        include LCDutils.inc
        include Board.inc
        include Cursor.inc
        include Input.inc
        include Logic.inc

        switch  RamSection
ramEnd      equ     *


;------------------------------------------------------------------------------
; Beginn des Programmcodes im schreibgeschuetzten Teil des Speichers
;------------------------------------------------------------------------------

            switch      RomSection
pageCmdMsk      dc.b    %10110000
colCmdMskM      dc.b    %00010000
colCmdMskL      dc.b    %00000000
adrMask         dc.b    %00000111

LCDCols         equ     128
LCDRows         equ     8
boardSize       equ     336
byteSize        equ     8
rowLength       equ     56


cursorRow       equ     6


boardOffset     equ     36


boardMiddleColumn   equ     24


;------------------------------------------------------------------------------
; Konstanten für Textausgabe auf dem LCD
; der erste Wert jeder Konstante repräsentiert deren Länge in Byte
;------------------------------------------------------------------------------


turnText
    dc.b    21,$02,$7E,$02,$00
    dc.b    $3C,$40,$40,$7C,$00
    dc.b    $7C,$08,$04,$08,$00
    dc.b    $7C,$08,$04,$78,$00
    dc.b    $28,$00

playerText
    dc.b    30,$7E,$12,$12,$0C,$00
    dc.b    $02,$7E,$00
    dc.b    $20,$54,$54,$78,$00
    dc.b    $1C,$A0,$A0,$7C,$00
    dc.b    $38,$54,$54,$48,$00
    dc.b    $7C,$08,$04,$08,$00
    dc.b    $00,$00

oneText
    dc.b 4,$04,$7E,$00,$00

twoText
    dc.b 5,$64,$52,$52,$4C,$00

wonText
    dc.b 17,$00,$00,$3C,$40,$20
    dc.b $40,$3C,$00
    dc.b $38,$44,$44,$38,$00
    dc.b $7C,$08,$04,$78,$00


;------------------------------------------------------------------------------
; Hauptprogramm
;------------------------------------------------------------------------------

neuesSpiel

    psha

    ldaa    #$0C
    jsr     putChar
    jsr     clrRam
    jsr     initSPI
    jsr     initLCD
    jsr     LCDClr
    jsr     createGrid
    jsr     drawBoard
    jsr     resetCursor

    ldaa    #1
    staa    player
    jsr     showText
    jsr     drawPlayer
    pula

    rts

Start
    lds     #$3FFF
    jsr     neuesSpiel

schleife
    jsr     tastenLesen
    bra     schleife

End     bra     *


;------------------------------------------------------------------------------
; Vektortabelle
;------------------------------------------------------------------------------
VSection    Section
        org     VRESET
        dc.w    Start
