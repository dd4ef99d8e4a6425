#!/usr/bin/env python3
"""Builds the grading corpus (tests/grade_corpus/*/) from the firmware.

Each folder is one student's submission: a copy of firmware/ with a change
that a student could make. Run from the repository root after the firmware
changed, then re-record the golden files:

    python3 tests/grade_corpus/make_corpus.py
    UPDATE_GOLDEN=1 cargo test --test grade_corpus

The zip-slip zip, the 50 MB source and a correct zip are made by the test
itself (tests/grade_corpus.rs), so no large or hostile file is committed.
"""

import os
import re
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FW = os.environ.get("FIRMWARE", os.path.join(ROOT, "firmware"))
OUT = os.path.join(ROOT, "tests", "grade_corpus")
SOURCES = ["Viergewinnt.asm", "Board.inc", "Cursor.inc", "Input.inc", "LCDutils.inc",
           "Logic.inc", "Utils.inc", "Trainer11Register.inc"]


def firmware():
    files = {}
    for name in SOURCES:
        with open(os.path.join(FW, name), encoding="utf-8") as f:
            files[name] = f.read()
    return files


def write(name, files, encoding="utf-8"):
    d = os.path.join(OUT, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    for fname, text in files.items():
        data = text if isinstance(text, bytes) else text.encode(encoding)
        with open(os.path.join(d, fname), "wb") as f:
            f.write(data)


def sub(files, fname, old, new, count=1):
    text = files[fname]
    if text.count(old) < count:
        sys.exit(f"{fname}: `{old}` not found {count} time(s)")
    files[fname] = text.replace(old, new, count)


def resub(files, fname, pattern, repl, count=1):
    text, n = re.subn(pattern, repl, files[fname], count=count)
    if n < count:
        sys.exit(f"{fname}: /{pattern}/ not found")
    files[fname] = text


def block(text, label, new):
    """Replaces the routine starting at line `label` up to the next header or EOF."""
    lines = text.split("\n")
    start = next(i for i, l in enumerate(lines) if re.match(rf"^{re.escape(label)}\b", l))
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith(";---")), len(lines))
    # keep blank lines before the next header
    while end > start and lines[end - 1].strip() == "":
        end -= 1
    return "\n".join(lines[:start] + new.strip("\n").split("\n") + lines[end:])


def rename(files, mapping):
    for fname in list(files):
        text = files[fname]
        for old, new in mapping.items():
            text = re.sub(rf"(?<![A-Za-z0-9_]){re.escape(old)}(?![A-Za-z0-9_])", new, text, flags=re.I)
        files[fname] = text


# --- the restyled rewrite: same behaviour, different code and names -------------

RESTYLED_LOGIC = {
    "getCellAddress": """
getCellAddress                          ; cellAddress = row * 56 + column * 8
        psha
        pshb
        pshx
        ldaa    #rowLength
        mul                             ; d = row * 56
        std     cellAddress
        tsx
        ldab    3,x                     ; the column, as pushed
        clra
        lsld
        lsld
        lsld                            ; column * 8
        addd    cellAddress
        std     cellAddress
        pulx
        pulb
        pula
        rts
""",
    "getCellOccupancy": """
getCellOccupancy                        ; a = 0 empty, 1 or 2: whose stone
        pshx
        pshb
        ldd     cellAddress
        addd    #board
        xgdx
        ldaa    3,x                     ; the middle row of the cell tells
        cmpa    #%10111101
        beq     occupancyOne
        cmpa    #%10100101
        beq     occupancyTwo
        clra
        bra     occupancyDone
occupancyOne
        ldaa    #1
        bra     occupancyDone
occupancyTwo
        ldaa    #2
occupancyDone
        pulb
        pulx
        rts
""",
    "nextPlayer": """
nextPlayer                              ; 1 <-> 2
        psha
        ldaa    player
        eora    #3
        staa    player
        pula
        rts
""",
    "checkWin": """
checkWin                                ; a = 1 and playerWonFlag = 1 on four in a row
        pshb
        ldaa    #0                      ; down only: nothing lies above the new stone
        ldab    #1
        jsr     getLineLength
        cmpa    #4
        bhs     checkWinYes
        ldd     #$0100                  ; left and right
        bsr     bothWays
        bhs     checkWinYes
        ldd     #$01FF                  ; up right and down left
        bsr     bothWays
        bhs     checkWinYes
        ldd     #$FFFF                  ; up left and down right
        bsr     bothWays
        bhs     checkWinYes
        clra
        pulb
        rts
checkWinYes
        ldaa    #1
        staa    playerWonFlag
        pulb
        rts

bothWays                                ; a, b = direction; a = stones in that line, flags of cmpa #4
        pshb
        psha
        jsr     getLineLength
        tab
        pula
        nega
        tsx
        pshb
        ldab    0,x
        negb
        jsr     getLineLength
        pulb
        ins
        deca
        aba
        cmpa    #4
        rts
""",
    "getLineLength": """
getLineLength                           ; a = 1 + own stones (at most 3) from coordx/coordy
        pshb
        pshy
        pshx
        staa    xoffset
        stab    yoffset
        ldaa    coordx
        ldab    coordy
        ldx     #0
lineStep
        adda    xoffset
        addb    yoffset
        psha
        jsr     isOutOfBorder
        tsta
        pula
        bne     lineDone
        jsr     getCellAddress
        psha
        jsr     getCellOccupancy
        cmpa    player
        pula
        bne     lineDone
        inx
        cpx     #3
        bne     lineStep
lineDone
        xgdx
        tba
        inca
        pulx
        puly
        pulb
        rts
""",
    "isOutOfBorder": """
isOutOfBorder                           ; a = 1 if (a, b) is off the 7x6 board
        cmpa    #7                      ; -1 is $FF: unsigned, both ends at once
        bhs     offBoard
        cmpb    #6
        bhs     offBoard
        clra
        rts
offBoard
        ldaa    #1
        rts
""",
}

RESTYLED_INPUT = {
    "setButtonFlag": """
setButtonFlag
        pshb
        ldab    #1
        stab    buttonFlag
        pulb
        rts
""",
    "resetButtonFlag": """
resetButtonFlag
        clr     buttonFlag
        rts
""",
    "incTimer": """
incTimer
        inc     timer
        rts
""",
    "resetTimer": """
resetTimer
        clr     timer
        rts
""",
}

RESTYLED_NAMES = {
    "readInput": "pollKeys", "setButtonFlag": "keyDown", "resetButtonFlag": "keyUp",
    "incTimer": "tickDebounce", "resetTimer": "clearDebounce", "setStone": "dropStone",
    "getCellAddress": "cellAddressOf", "getCellOccupancy": "cellOwner", "nextPlayer": "switchPlayer",
    "checkWin": "hasFour", "getLineLength": "runLength", "isOutOfBorder": "outside",
    "playerwon": "showWinner", "mainLoop": "gameLoop", "initGame": "newGame",
    "freeCellLoop": "findFree", "checkNextCell": "tryHigher", "setStoneEnd": "dropDone",
    "testButtonRelease": "debounce", "readInputEnd": "pollDone", "someoneWon": "gameWon",
    "bothWays": "pairLength", "lineStep": "walk", "lineDone": "walked",
    "checkWinYes": "fourFound", "offBoard": "isOutside",
    "occupancyOne": "ownerOne", "occupancyTwo": "ownerTwo", "occupancyDone": "ownerDone",
}

COPIED_NAMES = {
    "pollKeys": "tastenLesen", "keyDown": "tasteGedrueckt", "keyUp": "tasteLos",
    "tickDebounce": "entprellen", "clearDebounce": "entprellenAus", "dropStone": "steinFallen",
    "cellAddressOf": "zellenAdresse", "cellOwner": "zellenBesitzer", "switchPlayer": "wechsel",
    "hasFour": "vierGefunden", "runLength": "zaehleReihe", "outside": "ausserhalb",
    "showWinner": "siegerZeigen", "gameLoop": "schleife", "newGame": "neuesSpiel",
    "pairLength": "beideRichtungen", "walk": "schritt", "walked": "fertig",
}


def restyled(files):
    for label, code in RESTYLED_LOGIC.items():
        files["Logic.inc"] = block(files["Logic.inc"], label, code)
    for label, code in RESTYLED_INPUT.items():
        files["Input.inc"] = block(files["Input.inc"], label, code)
    # The key test: buttonFlag is 0 or 1, so a tst does what ldab/cmpb #1 did.
    resub(files, "Input.inc", r"ldab\s+buttonFlag[^\n]*\n\s*cmpb\s+#1[^\n]*\n\s*beq\s+testButtonRelease",
          "tst     buttonFlag                      ; Taste noch nicht entprellt?\n"
          "        bne     testButtonRelease")
    rename(files, RESTYLED_NAMES)
    # Layout: tabs instead of spaces, comments in English in the main file.
    for f in files:
        files[f] = files[f].replace("        ", "\t")
    return files


def main():
    fw = firmware()

    write("correct", fw)

    write("restyled", restyled(dict(fw)))

    copied = restyled(dict(fw))
    rename(copied, COPIED_NAMES)
    for f in copied:
        # drop end-of-line comments and re-indent: the code is the same
        copied[f] = "\n".join(re.sub(r"\s*;[^\n]*$", "", l) if not l.startswith(";") else l
                              for l in copied[f].split("\n")).replace("\t", "    ")
    write("copied", copied)

    latin1 = dict(fw)
    write("latin1", latin1, encoding="latin-1")

    f = dict(fw)
    del f["Trainer11Register.inc"]   # the course's copy is used instead
    f["Cursor.inc"] = block(f["Cursor.inc"], "moveCursorLeft", """
moveCursorLeft
        psha
        jsr     clearCursor             ; alten Cursor löschen
        ldaa    cursorColumn
        cmpa    #boardOffset            ; linker Rand erreicht?
        beq     moveCursorLeftStay      ; dann stehen bleiben
        suba    #byteSize               ; eine Spalte nach links
        staa    cursorColumn
moveCursorLeftStay
        jsr     drawCursor              ; neuen Cursor zeichnen
        pula
        rts
""")
    f["Cursor.inc"] = block(f["Cursor.inc"], "moveCursorRight", """
moveCursorRight
        psha
        jsr     clearCursor             ; alten Cursor löschen
        ldaa    cursorColumn
        cmpa    #boardOffset+rowLength-byteSize ; rechter Rand erreicht?
        beq     moveCursorRightStay
        adda    #byteSize               ; eine Spalte nach rechts
        staa    cursorColumn
moveCursorRightStay
        jsr     drawCursor              ; neuen Cursor zeichnen
        pula
        rts
""")
    write("no_wraparound", f)

    f = dict(fw)
    # off by one in one direction: the falling diagonal needs five
    text = f["Logic.inc"]
    idx = text.index("Richtung unten Rechts")
    head, tail = text[:idx], text[idx:]
    tail = tail.replace("cmpa    #4", "cmpa    #5", 1)
    f["Logic.inc"] = head + tail
    write("diagonal_off_by_one", f)

    f = dict(fw)
    resub(f, "Logic.inc", r"(checkWin\s*\n\s*pshb[^\n]*\n)", r"\1        bra     checkWinFalse           ; TODO erst mal aus\n")
    write("never_wins", f)

    f = dict(fw)
    resub(f, "Board.inc", r"jsr\s+drawCell\b", "jsr     drawCel")
    resub(f, "Input.inc", r"cmpa\s+#%11110111", "cmpa    #%111101111")
    write("does_not_assemble", f)

    f = dict(fw)
    resub(f, "Viergewinnt.asm", r"bra\s+mainLoop", "bra     Start")
    write("endless_loop", f)

    f = dict(fw)
    resub(f, "Logic.inc", r"(ldy\s+#6[^\n]*\n)", r"\1        dc.b    $41,$42                 ; Zeilen 1 und 2\n")
    write("illegal_opcode", f)

    f = dict(fw)
    resub(f, "Logic.inc", r"jsr\s+isOutOfBorder", "jsr     getLineLength")
    write("stack_overflow", f)

    f = dict(fw)
    sub(f, "Viergewinnt.asm", "pageCmdMsk", "moveCount           ds.b        1               ; Anzahl der Züge\npageCmdMsk")
    resub(f, "Logic.inc", r"(\nsetStoneEnd[^\n]*\n)", r"\1        inc     moveCount\n")
    write("rom_variable", f)

    f = dict(fw)
    resub(f, "Viergewinnt.asm", r"include\s+Utils\.inc", "include ../../firmware/Utils.inc")
    write("include_outside", f)

    f = {"Viergewinnt.asm": bytes(range(256)) * 2}
    write("binary_garbage", f)

    f = dict(fw)
    f["vier_gewinnt_final.asm"] = f.pop("Viergewinnt.asm")
    write("wrong_name", f)


if __name__ == "__main__":
    main()
