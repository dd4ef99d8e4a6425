;------------------------------------------------------------------------------
; BoardTest.asm:
;
; Pruefstand fuer Board.inc (Aufgabe E2 "Vertauschte Pulls").
; Ruft jede Routine aus Board.inc mit bekannten Registerwerten auf
; (A = $12, B = $34, X = $5678, Y = $9ABC), speichert A, B, X, Y und SP
; nach der Rueckkehr in "results" und gibt sie auf dem Terminal aus:
;
;   createGrid     $1234 $5678 $9ABC $3FFF
;
; Eine Routine, die ihre Register richtig rettet, gibt die Startwerte zurueck.
; Dieses Programm nicht veraendern, nur Board.inc.
;------------------------------------------------------------------------------

        include trainer11Register.inc


;------------------------------------------------------------------------------
; Definition von Variablen im RAM (wie in Viergewinnt.asm)
;------------------------------------------------------------------------------

RamSection      Section
                org     $0040

ramBegin        equ     *                       ; Anfang des Rams
board           ds.b    boardSize               ; Der Buffer für das Spielfeld
cellAddress     ds.w    1                       ; Die Adresse für eine Zeile des
                                                ; Spielfeldes (als Funktionsparameter)
debugCellAdress ds.w    1                       ; Parameter von debugCell
player          ds.b    1                       ; von drawPlayer/drawWinner gelesen
results         ds.b    testCount*8             ; je Routine: A, B, X, Y, SP
                                                ; nach der Rückkehr

RomSection      Section
                org     $C000

                include Utils.inc
                include LCDutils.inc
                include Board.inc
                include Debug.inc

                switch  RamSection
ramEnd          equ     *                       ; Ende des Rams


;------------------------------------------------------------------------------
; Konstanten (wie in Viergewinnt.asm)
;------------------------------------------------------------------------------

                    switch      RomSection
pageCmdMsk          dc.b        %10110000       ; Steuerkommando fürs Display
colCmdMskM          dc.b        %00010000       ; Steuerkommando fürs Display
colCmdMskL          dc.b        %00000000       ; Steuerkommando fürs Display

LCDCols             equ         128             ; Horizontale Pixeln des LCD's
LCDRows             equ         8               ; Vertikalen Bytes des LCD's
boardSize           equ         336             ; Byteanzahl des Buffers
byteSize            equ         8               ; Größe eines Bytes in Bit
rowLength           equ         56              ; Zeilenlänge des Spielfeldes
boardOffset         equ         36              ; horizontaler Versatz des
                                                ; Spielfeldes

; Texte, die LCDutils.inc benutzt (showText, drawPlayer, drawWinner);
; der Pruefstand zeichnet sie nicht.
turnText            dc.b        0
playerText          dc.b        0
oneText             dc.b        0
twoText             dc.b        0
wonText             dc.b        0

testA               equ         $12             ; Startwerte der Register
testB               equ         $34
testX               equ         $5678
testY               equ         $9ABC
testCount           equ         6               ; Anzahl der geprüften Routinen

titleMsg            dc.b        "BoardTest: D X Y SP nach der Rueckkehr",0
nameGrid            dc.b        "createGrid     ",0
nameStone1          dc.b        "stone1ToBuffer ",0
nameStone2          dc.b        "stone2ToBuffer ",0
nameCell            dc.b        "cellToBuffer   ",0
nameDrawCell        dc.b        "drawCell       ",0
nameDrawBoard       dc.b        "drawBoard      ",0


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
; putResult:
;
; Gibt eine Zeile "Name  D X Y SP" aus.
;
; @param Register x: Adresse des Namens
; @param Register y: Adresse des Eintrags in results (8 Byte)
;------------------------------------------------------------------------------

putResult
        psha
        pshb
        pshx

        jsr     putString
        ldd     0,y                             ; A und B
        jsr     putHex
        ldd     2,y                             ; X
        jsr     putHex
        ldd     4,y                             ; Y
        jsr     putHex
        ldd     6,y                             ; SP
        jsr     putHex
        jsr     crlf

        pulx
        pulb
        pula
        rts


;------------------------------------------------------------------------------
; Hauptprogramm: die Tests. Vor jedem Aufruf werden alle Register auf die
; Startwerte gesetzt, danach unveraendert in results gespeichert.
;------------------------------------------------------------------------------

Start
        lds     #$3FFF
        jsr     initSPI
        jsr     initLCD
        jsr     LCDClr

        ; 1. createGrid: leeres Spielfeld in den Buffer
        ldaa    #testA
        ldab    #testB
        ldx     #testX
        ldy     #testY
        jsr     createGrid
        staa    results+0
        stab    results+1
        stx     results+2
        sty     results+4
        sts     results+6

        ; 2. stone1ToBuffer: Spalte 3, Zeile 2 (3*8 + 2*56 = 136)
        ldd     #136
        std     cellAddress
        ldaa    #testA
        ldab    #testB
        ldx     #testX
        ldy     #testY
        jsr     stone1ToBuffer
        staa    results+8
        stab    results+9
        stx     results+10
        sty     results+12
        sts     results+14

        ; 3. stone2ToBuffer: Spalte 4, Zeile 5 (4*8 + 5*56 = 312)
        ldd     #312
        std     cellAddress
        ldaa    #testA
        ldab    #testB
        ldx     #testX
        ldy     #testY
        jsr     stone2ToBuffer
        staa    results+16
        stab    results+17
        stx     results+18
        sty     results+20
        sts     results+22

        ; 4. cellToBuffer: Spalte 0, Zeile 0 (bleibt leer)
        ldd     #0
        std     cellAddress
        ldaa    #testA
        ldab    #testB
        ldx     #testX
        ldy     #testY
        jsr     cellToBuffer
        staa    results+24
        stab    results+25
        stx     results+26
        sty     results+28
        sts     results+30

        ; 5. drawCell: die Zelle mit dem Stein von Spieler 1
        ldd     #136
        std     cellAddress
        ldaa    #testA
        ldab    #testB
        ldx     #testX
        ldy     #testY
        jsr     drawCell
        staa    results+32
        stab    results+33
        stx     results+34
        sty     results+36
        sts     results+38

        ; 6. drawBoard: der ganze Buffer auf das LCD
        ldaa    #testA
        ldab    #testB
        ldx     #testX
        ldy     #testY
        jsr     drawBoard
        staa    results+40
        stab    results+41
        stx     results+42
        sty     results+44
        sts     results+46

        ; Bericht auf dem Terminal
        ldx     #titleMsg
        jsr     putString
        jsr     crlf
        ldx     #nameGrid
        ldy     #results+0
        jsr     putResult
        ldx     #nameStone1
        ldy     #results+8
        jsr     putResult
        ldx     #nameStone2
        ldy     #results+16
        jsr     putResult
        ldx     #nameCell
        ldy     #results+24
        jsr     putResult
        ldx     #nameDrawCell
        ldy     #results+32
        jsr     putResult
        ldx     #nameDrawBoard
        ldy     #results+40
        jsr     putResult

End     nop                                     ; Ende der Tests: hier warten
        bra     End


;------------------------------------------------------------------------------
; Vektortabelle
;------------------------------------------------------------------------------
VSection        Section
                org     VRESET                  ; Reset-Vektor
                dc.w    Start                   ; Programm-Startadresse
