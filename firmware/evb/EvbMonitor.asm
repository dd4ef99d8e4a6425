;------------------------------------------------------------------------------
; EvbMonitor.asm (firmware/evb): hc11lab's monitor for the EVB and EVBU boards.
;
; Written for hc11lab so that programs written for Motorola's BUFFALO
; monitor run without the Motorola ROM: it offers the interface BUFFALO
; documents (the EVB and EVBU manuals) and nothing of its code:
;
; - the utility jump table at $FFA0-$FFD2 (UPCASE ... VECINIT), each entry
;   with the documented behaviour, and from the table before it WARMST
;   ($FF7C), RPRINT ($FF82), HEXBIN, BUFFARG, TERMARG ($FF85-$FF8B, with
;   SHFTREG and TMP1 at BUFFALO's addresses $0096 and $00C0), the
;   input-buffer routines READBUFF, INCBUFF, DECBUFF, WSKIP ($FF91-$FF9A)
;   and CHKABRT ($FF9D);
; - the pseudo-vectors: every interrupt vector at $FFD6-$FFFE points to a
;   three-byte slot in RAM at $00C4-$00FF, where a program puts `jmp
;   handler` (`org $00EB` / `jmp Tick` for the real-time interrupt); slots
;   without a JMP lead to a message that names the interrupt;
; - `G addr`: the program starts with SP = $0041, CCR = $D0 (S, X and I
;   set) and A, B, X, Y as the register table holds them (zero after
;   reset), through an RTI as BUFFALO does; `swi` comes back to the
;   monitor, which prints the registers as BUFFALO prints them
;   (P-pppp Y-yyyy X-xxxx A-aa B-bb C-cc S-ssss) and shows its prompt;
; - PE0 high at reset starts the EEPROM at $B600 instead.
;
; hc11lab fills the word `AutoStart` with the start of the program it
; loads; the monitor then shows `>G addr` and starts it, as if typed.
; Commands at the prompt: MD, G (GO), R, HELP. docs/evb.md has the rest.
;
; RAM: the monitor keeps to BUFFALO's part of the internal RAM
; ($002D-$00FF); $0000-$002C and everything else belong to the program.
;------------------------------------------------------------------------------

REGS            equ     $1000
PORTE           equ     REGS+$0A
CFORC           equ     REGS+$0B
TCTL1           equ     REGS+$20
TMSK2           equ     REGS+$24
BAUD            equ     REGS+$2B
SCCR1           equ     REGS+$2C
SCCR2           equ     REGS+$2D
SCSR            equ     REGS+$2E
SCDR            equ     REGS+$2F
BPROT           equ     REGS+$35
OPTION          equ     REGS+$39
COPRST          equ     REGS+$3A

EEPROM          equ     $B600
EOT             equ     $04
CR              equ     $0D
LF              equ     $0A
CTLW            equ     $17
CTLX            equ     $18
BS              equ     $08
DEL             equ     $7F
JMPOP           equ     $7E
LINEMAX         equ     35

;------------------------------------------------------------------------------
; RAM
;------------------------------------------------------------------------------

RamSection      Section
                org     $002D
                ds.b    20                      ; the program's stack at G
UserStack       ds.b    1                       ; SP = $0041 at G
                ds.b    38                      ; the monitor's stack
MonStack        ds.b    1                       ; its top ($0068)
UserPc          ds.w    1                       ; the register table
UserY           ds.w    1
UserX           ds.w    1
UserA           ds.b    1
UserB           ds.b    1
UserCcr         ds.b    1
UserSp          ds.w    1
MonSp           ds.w    1                       ; the monitor's SP at G
SavedSwi        ds.w    1                       ; the program's SWI slot
ReturnCause     ds.b    1                       ; 0 none, 1 swi, 2 interrupt
StrayVector     ds.b    1                       ; its slot number
AutoLf          ds.b    1                       ; CR sent as CR LF
Column          ds.b    1                       ; characters on the line
LineLen         ds.b    1
Arg1            ds.w    1
Arg2            ds.w    1
ArgCount        ds.b    1
Digits          ds.b    1
LinePtr         ds.w    1                       ; READBUFF's place in Line
; Where BUFFALO 3.4 on the EVB keeps them: programs read them there.
                org     $0096
ShftReg         ds.w    1                       ; SHFTREG: HEXBIN's four digits
Line            ds.b    LINEMAX+1
                org     $00C0
Tmp1            ds.b    1                       ; TMP1: HEXBIN's count of non-hex characters
RamEnd          equ     *

                org     $00C4
PseudoVectors   ds.b    60                      ; 20 slots of `jmp handler`
JSwi            equ     PseudoVectors+3*16

;------------------------------------------------------------------------------
; Start
;------------------------------------------------------------------------------

RomSection      Section
                org     $E000

; OPTION and TMSK2 take these bits only in the first 64 cycles after reset.
Cold            ldaa    #$93                    ; ADPU, IRQE, DLY, COP rate /64
                staa    OPTION
                clr     TMSK2                   ; timer prescaler 1
                clr     BPROT                   ; the E9's EEPROM unprotected
                ldx     #PORTE
                brclr   0,x,#$01,Boot           ; PE0 low: the monitor
                jmp     EEPROM                  ; PE0 high: the EEPROM

Boot            lds     #MonStack
                jsr     VecInit
                ldaa    #1
                staa    AutoLf
                jsr     Init
                jsr     Oc5High
                ldd     #0
                std     UserY
                std     UserX
                std     UserA                   ; A and B
                std     UserPc
                ldaa    #$D0
                staa    UserCcr
                ldd     #UserStack
                std     UserSp
                clr     ReturnCause
                ldx     #Banner
                jsr     OutStrg
                ldd     AutoStart
                cpd     #$FFFF
                beq     Main
                std     UserPc                  ; show it as typed
                jsr     OutCrLf
                ldaa    #'>'
                jsr     Output
                ldaa    #'G'
                jsr     Output
                ldaa    #' '
                jsr     Output
                ldx     #UserPc
                jsr     Out1Byt
                jsr     Out1Byt
                ldaa    #CR
                jsr     Output
                staa    Line                    ; its line holds nothing more
                ldx     #Line
                stx     LinePtr
                jmp     GoUser

; The word hc11lab sets to the program's start ($FFFF: none).
AutoStart       dc.w    $FFFF

;------------------------------------------------------------------------------
; The prompt: read a line, run its command.
;------------------------------------------------------------------------------

Main            sei
                lds     #MonStack
                ldaa    #1
                staa    AutoLf
                jsr     OutCrLf
                ldaa    #'>'
                jsr     Output
                clr     LineLen
MainRead        jsr     InChar
                cmpa    #CTLX
                beq     Main
                cmpa    #DEL
                beq     Main
                cmpa    #BS
                bne     MainNotBs
                tst     LineLen
                beq     MainRead
                dec     LineLen
                bra     MainRead
MainNotBs       cmpa    #CR
                beq     MainRun
                ldab    LineLen
                cmpb    #LINEMAX
                bhs     MainLong
                ldx     #Line
                abx
                staa    0,x
                inc     LineLen
                bra     MainRead
MainLong        ldx     #MsgLong
                jsr     OutStrg
                bra     Main

MainRun         ldab    LineLen
                ldx     #Line
                abx
                ldaa    #CR
                staa    0,x                     ; the line ends in CR
                ldy     #Line
                jsr     SkipBlanks
                cmpa    #CR
                beq     Main                    ; an empty line
                ldx     #Commands
MainFind        ldab    0,x                     ; the name's length, 0 = end
                beq     MainUnknown
                pshy
                pshx
                inx
MainCmp         ldaa    0,y
                jsr     UpCase
                cmpa    0,x
                bne     MainNext
                inx
                iny
                decb
                bne     MainCmp
                ldaa    0,y                     ; the word must end here
                jsr     DChek
                bne     MainNext
                pulx                            ; found: its routine
                ldab    0,x
                incb
                abx
                ldx     0,x
                ins                             ; drop the saved Y
                ins
                jsr     0,x
                jmp     Main
MainNext        pulx
                puly
                ldab    0,x
                addb    #3
                abx
                bra     MainFind
MainUnknown     ldx     #MsgWhat
                jsr     OutStrg
                jmp     Main

; Commands: length, name, routine.
Commands        dc.b    2,'MD'
                dc.w    CmdMd
                dc.b    2,'GO'
                dc.w    CmdGo
                dc.b    1,'G'
                dc.w    CmdGo
                dc.b    1,'R'
                dc.w    CmdR
                dc.b    4,'HELP'
                dc.w    CmdHelp
                dc.b    1,'?'
                dc.w    CmdHelp
                dc.b    0

;------------------------------------------------------------------------------
; Commands (Y points after the command's name in Line)
;------------------------------------------------------------------------------

; MD addr [last]: 16 bytes a line with their characters, from addr's line
; to last's (eight lines without it).
CmdMd           jsr     Args
                tst     ArgCount
                bne     MdHave
                ldx     #MsgAddr
                jmp     OutStrg
MdHave          ldd     Arg1
                andb    #$F0
                std     Arg1
                ldaa    ArgCount
                cmpa    #2
                beq     MdLines
                ldd     Arg1
                addd    #$7F
                bcc     MdEnd
                ldd     #$FFFF
MdEnd           std     Arg2
MdLines         jsr     OutCrLf
                ldx     #Arg1
                jsr     Out2BSp
                ldx     Arg1
                ldab    #16
MdByte          jsr     Out1BSp
                decb
                bne     MdByte
                ldaa    #' '
                jsr     Output
                ldx     Arg1
                ldab    #16
MdChar          ldaa    0,x
                cmpa    #' '
                blo     MdDot
                cmpa    #$7E
                bls     MdShow
MdDot           ldaa    #'.'
MdShow          jsr     Output
                inx
                decb
                bne     MdChar
                ldd     Arg1
                addd    #16
                bcs     MdDone                  ; past $FFFF
                std     Arg1
                subd    #1
                cpd     Arg2
                bhs     MdDone
                jsr     Input                   ; CTRL-X stops the dump
                cmpa    #CTLX
                bne     MdLines
MdDone          rts

; G [addr] or GO [addr]: run the program from addr (or the saved PC).
CmdGo           jsr     Hex                     ; one address, as BUFFALO's G
                sty     LinePtr                 ; the rest of the line, for READBUFF
                bcs     GoUser
                std     UserPc
GoUser          sei
                clr     ReturnCause
                ldx     JSwi+1                  ; swi comes back here
                stx     SavedSwi
                ldaa    #JMPOP
                staa    JSwi
                ldx     #SwiEntry
                stx     JSwi+1
                sts     MonSp
                lds     UserSp
                ldx     UserPc
                pshx
                ldx     UserY
                pshx
                ldx     UserX
                pshx
                ldaa    UserA
                psha
                ldaa    UserB
                psha
                ldaa    UserCcr
                psha
                rti

; R: the program's registers.
CmdR            jsr     OutCrLf
                jmp     RPrint

; HELP: the commands.
CmdHelp         ldx     #MsgHelp
                jmp     OutStrg

;------------------------------------------------------------------------------
; Back from the program
;------------------------------------------------------------------------------

; swi in the program: save its registers, print them, prompt.
SwiEntry        tsx                             ; the frame: CCR B A X Y PC
                lds     MonSp
                jsr     SaveFrame
                ldd     UserPc                  ; the PC of the swi itself
                subd    #1
                std     UserPc
                ldx     SavedSwi                ; the program's own slot back
                stx     JSwi+1
                ldaa    #1
                staa    ReturnCause
                jsr     Oc5High
                jsr     OutCrLf
                jsr     RPrint
                jmp     Main

; An interrupt whose slot holds no JMP: say which, show the registers.
; B holds the slot number (0 SCI ... 19 clock monitor).
Stray           stab    StrayVector
                tsx
                cmpb    #18                     ; COP and clock monitor are
                bhs     StrayReset              ; resets: no frame
                lds     #MonStack
                jsr     SaveFrame
StrayReset      lds     #MonStack
                ldaa    #2
                staa    ReturnCause
                jsr     Init
                ldx     #MsgStray
                jsr     OutStrg
                ldx     #VectorNames
                ldab    StrayVector
                lslb
                lslb
                lslb
                abx
                jsr     OutStrg0
                ldx     #MsgSlot
                jsr     OutStrg0
                ldab    StrayVector
                ldaa    #3
                mul
                addb    #PseudoVectors
                pshb
                tsx
                jsr     Out1Byt                 ; the slot's address
                ins
                ldx     #MsgNoJmp
                jsr     OutStrg0
                ldab    StrayVector
                cmpb    #18
                bhs     StrayDone
                jsr     OutCrLf
                jsr     RPrint
StrayDone       jmp     Main

; Copies the interrupt frame at X (CCR, B, A, X, Y, PC) into the register
; table; the program's SP is the one before the frame.
SaveFrame       ldaa    0,x
                staa    UserCcr
                ldaa    1,x
                staa    UserB
                ldaa    2,x
                staa    UserA
                ldd     3,x
                std     UserX
                ldd     5,x
                std     UserY
                ldd     7,x
                std     UserPc
                ldab    #8
                abx
                stx     UserSp
                rts

; OC5's pin (PA3, wired to XIRQ) high, as a monitor leaves it.
Oc5High         ldaa    TCTL1
                oraa    #$03
                staa    TCTL1
                ldaa    #$08
                staa    CFORC
                rts

; RPRINT: P-pppp Y-yyyy X-xxxx A-aa B-bb C-cc S-ssss, each with a space.
RPrint          pshx
                pshb
                psha
                ldx     #UserPc
                ldaa    #'P'
                bsr     RWord
                ldaa    #'Y'
                bsr     RWord
                ldaa    #'X'
                bsr     RWord
                ldaa    #'A'
                bsr     RByte
                ldaa    #'B'
                bsr     RByte
                ldaa    #'C'
                bsr     RByte
                ldaa    #'S'
                bsr     RWord
                pula
                pulb
                pulx
                rts
RWord           bsr     RName
                jsr     Out1Byt
                jmp     Out1BSp
RByte           bsr     RName
                jmp     Out1BSp
RName           jsr     Output
                ldaa    #'-'
                jmp     Output

;------------------------------------------------------------------------------
; Argument parsing (Y in Line)
;------------------------------------------------------------------------------

; Skips blanks (space, comma, tab); A = the first other character.
SkipBlanks      ldaa    0,y
                jsr     WChek
                bne     SkipDone
                iny
                bra     SkipBlanks
SkipDone        rts

; Up to two hex arguments into Arg1, Arg2; ArgCount says how many.
Args            clr     ArgCount
                bsr     Hex
                bcs     ArgsDone
                std     Arg1
                inc     ArgCount
                bsr     Hex
                bcs     ArgsDone
                std     Arg2
                inc     ArgCount
ArgsDone        rts

; One hex number after blanks into D; carry set if there is none.
Hex             bsr     SkipBlanks
                clr     Digits
                ldx     #0
HexLoop         ldaa    0,y
                jsr     UpCase
                suba    #'0'
                blo     HexEnd
                cmpa    #9
                bls     HexDigit
                suba    #7                      ; 'A' is 10
                cmpa    #10
                blo     HexEnd
                cmpa    #15
                bhi     HexEnd
HexDigit        psha                            ; X = X * 16 + digit
                xgdx
                lsld
                lsld
                lsld
                lsld
                xgdx
                pulb
                abx
                inc     Digits
                iny
                bra     HexLoop
HexEnd          xgdx
                tst     Digits
                bne     HexGot
                sec
                rts
HexGot          clc
                rts

;------------------------------------------------------------------------------
; The utility routines of the jump table
;------------------------------------------------------------------------------

; UPCASE: A in upper case.
UpCase          cmpa    #'a'
                blo     UpCaseDone
                cmpa    #'z'
                bhi     UpCaseDone
                suba    #$20
UpCaseDone      rts

; WCHEK: Z set if A is white space (space, comma, tab).
WChek           cmpa    #' '
                beq     WChekDone
                cmpa    #','
                beq     WChekDone
                cmpa    #$09
WChekDone       rts

; DCHEK: Z set if A is a delimiter (white space or CR).
DChek           bsr     WChek
                beq     DChekDone
                cmpa    #CR
DChekDone       rts

; INIT: the SCI at 9600 Bd (8 MHz crystal), transmitter and receiver on.
Init            psha
                ldaa    #$30
                staa    BAUD
                clr     SCCR1
                ldaa    #$0C
                staa    SCCR2
                pula
                rts

; INPUT: A = the received character (parity bit cleared) or 0, Z set on
; 0; feeds the COP.
Input           ldaa    #$55
                staa    COPRST
                ldaa    #$AA
                staa    COPRST
                ldaa    SCSR
                anda    #$20
                beq     InputDone
                ldaa    SCDR
                anda    #$7F
InputDone       rts

; OUTPUT: sends A (bit 7 cleared); with AutoLf a CR is followed by LF and
; an LF by CR. Keeps A, B and X; counts the column.
Output          psha
                pshb
                bsr     SendA
                tst     AutoLf
                beq     OutputDone
                cmpa    #CR
                bne     OutputLf
                ldaa    #LF
                bsr     SendA
                bra     OutputDone
OutputLf        cmpa    #LF
                bne     OutputDone
                ldaa    #CR
                bsr     SendA
OutputDone      pulb
                pula
                inc     Column
                rts
SendA           ldab    SCSR
                bitb    #$80
                beq     SendA
                anda    #$7F
                staa    SCDR
                rts

; OUTLHLF, OUTRHLF: the high or low four bits of A as a hex digit; OUTA:
; A as it is.
OutLHlf         lsra
                lsra
                lsra
                lsra
OutRHlf         anda    #$0F
                adda    #'0'
                cmpa    #'9'
                bls     OutA
                adda    #7                      ; 'A' after '9'
OutA            jmp     Output

; OUT1BYT: the byte at X in hex, X to the next byte.
Out1Byt         psha
                ldaa    0,x
                psha
                bsr     OutLHlf
                pula
                bsr     OutRHlf
                pula
                inx
                rts

; OUT2BSP: two bytes at X in hex and a space; OUT1BSP: one; A = space.
Out2BSp         bsr     Out1Byt
Out1BSp         bsr     Out1Byt
OutSpac         ldaa    #' '
                jmp     Output

; OUTCRLF: CR (and LF) and a NUL for the terminal's return; A = CR.
OutCrLf         ldaa    #CR
                jsr     Output
                clra
                jsr     Output
                ldaa    #CR
                clr     Column
                rts

; OUTSTRG: a new line, then OUTSTRG0: the text at X up to $04 (X ends on
; it); CTRL-W typed meanwhile pauses until the next key.
OutStrg         bsr     OutCrLf
OutStrg0        psha
OutStrgLoop     ldaa    0,x
                cmpa    #EOT
                beq     OutStrgDone
                jsr     Output
                inx
                jsr     Input
                beq     OutStrgLoop
                cmpa    #CTLW
                bne     OutStrgLoop
OutStrgWait     jsr     Input
                beq     OutStrgWait
                bra     OutStrgLoop
OutStrgDone     pula
                rts

; HEXBIN: the hex digit in A (either case) shifted into SHFTREG from the
; right (its oldest digit drops out); a character that is no hex digit
; leaves SHFTREG as it is and counts one in TMP1. A, B, X kept.
HexBin          psha
                pshb
                jsr     UpCase
                suba    #'0'
                blo     HexBinNot
                cmpa    #9
                bls     HexBinDigit
                suba    #7                      ; 'A' is 10
                cmpa    #10
                blo     HexBinNot
                cmpa    #15
                bhi     HexBinNot
HexBinDigit     ldab    #4
HexBinShift     asl     ShftReg+1
                rol     ShftReg
                decb
                bne     HexBinShift
                oraa    ShftReg+1
                staa    ShftReg+1
                bra     HexBinDone
HexBinNot       inc     Tmp1
HexBinDone      pulb
                pula
                rts

; BUFFARG: a hex argument from the input buffer into SHFTREG: SHFTREG and
; TMP1 cleared, white space skipped (WSKIP), then every character up to
; the next delimiter through HEXBIN, the pointer left on the delimiter; A
; = the delimiter.
BuffArg         clr     ShftReg
                clr     ShftReg+1
                clr     Tmp1
                bsr     WSkip
BuffArgLoop     bsr     ReadBuff
                jsr     DChek
                beq     BuffArgDone
                bsr     HexBin
                bsr     IncBuff
                bra     BuffArgLoop
BuffArgDone     rts

; TERMARG: a hex argument typed on the terminal into SHFTREG: SHFTREG and
; TMP1 cleared, then every character read with INCHAR (echoed) up to a
; delimiter through HEXBIN; A = the delimiter.
TermArg         clr     ShftReg
                clr     ShftReg+1
                clr     Tmp1
TermArgLoop     jsr     InChar
                jsr     DChek
                beq     TermArgDone
                bsr     HexBin
                bra     TermArgLoop
TermArgDone     rts

; READBUFF: A = the character at the input buffer's pointer (after `G
; addr`, what follows the address on the typed line; CR at its end).
ReadBuff        pshx
                ldx     LinePtr
                ldaa    0,x
                pulx
                rts

; INCBUFF, DECBUFF: the pointer one character on or back; A, B, X kept.
IncBuff         pshx
                ldx     LinePtr
                inx
                stx     LinePtr
                pulx
                rts
DecBuff         pshx
                ldx     LinePtr
                dex
                stx     LinePtr
                pulx
                rts

; WSKIP: the pointer past white space; A = the character there, Z set if
; it is the line's CR.
WSkip           bsr     ReadBuff
                jsr     WChek
                bne     WSkipEnd
                bsr     IncBuff
                bra     WSkip
WSkipEnd        cmpa    #CR
                rts

; CHKABRT: a key typed meanwhile: CTRL-X or DEL abort to the prompt,
; CTRL-W waits for the next key, any other is read and dropped. A kept.
ChkAbrt         psha
                jsr     Input
                beq     ChkAbrtDone
                cmpa    #CTLX
                beq     ChkAbrtStop
                cmpa    #DEL
                beq     ChkAbrtStop
                cmpa    #CTLW
                bne     ChkAbrtDone
ChkAbrtWait     jsr     Input
                beq     ChkAbrtWait
ChkAbrtDone     pula
                rts
ChkAbrtStop     jmp     Main

; INCHAR: waits for a character, echoes it, returns it in A.
InChar          jsr     Input
                beq     InChar
                jmp     Output

; VECINIT: every pseudo-vector slot without a JMP gets one to the
; monitor's message for its interrupt.
VecInit         ldx     #PseudoVectors
                ldy     #StrayStubs
VecInitLoop     ldaa    0,x
                cmpa    #JMPOP
                beq     VecInitNext
                ldaa    #JMPOP
                staa    0,x
                sty     1,x
VecInitNext     inx
                inx
                inx
                iny
                iny
                iny
                iny
                cpx     #PseudoVectors+60
                bne     VecInitLoop
                rts

; One stub per slot: its number to Stray.
StrayStubs      ldab    #0
                bra     StrayJump
                ldab    #1
                bra     StrayJump
                ldab    #2
                bra     StrayJump
                ldab    #3
                bra     StrayJump
                ldab    #4
                bra     StrayJump
                ldab    #5
                bra     StrayJump
                ldab    #6
                bra     StrayJump
                ldab    #7
                bra     StrayJump
                ldab    #8
                bra     StrayJump
                ldab    #9
                bra     StrayJump
                ldab    #10
                bra     StrayJump
                ldab    #11
                bra     StrayJump
                ldab    #12
                bra     StrayJump
                ldab    #13
                bra     StrayJump
                ldab    #14
                bra     StrayJump
                ldab    #15
                bra     StrayJump
                ldab    #16
                bra     StrayJump
                ldab    #17
                bra     StrayJump
                ldab    #18
                bra     StrayJump
                ldab    #19
StrayJump       jmp     Stray

;------------------------------------------------------------------------------
; Texts
;------------------------------------------------------------------------------

Banner          dc.b    'hc11lab EVB monitor 1.0 (BUFFALO interface; HELP lists the commands)',EOT
MsgWhat         dc.b    'What? (HELP lists the commands)',EOT
MsgLong         dc.b    'Line too long',EOT
MsgAddr         dc.b    'Give an address: MD addr [last]',EOT
MsgStray        dc.b    'Interrupt without a handler: ',EOT
MsgSlot         dc.b    ' (its pseudo-vector at $00',EOT
MsgNoJmp        dc.b    ' holds no JMP)',EOT
MsgHelp         dc.b    'MD addr [last]  memory dump',CR,LF
                dc.b    'G [addr]        run the program (GO too); swi returns here',CR,LF
                dc.b    'R               the program',$27,'s registers',CR,LF
                dc.b    'HELP            this list',EOT

; Eight characters per name, the interrupts in slot order.
VectorNames     dc.b    'SCI',EOT,'    '
                dc.b    'SPI',EOT,'    '
                dc.b    'PAIE',EOT,'   '
                dc.b    'PAO',EOT,'    '
                dc.b    'TOF',EOT,'    '
                dc.b    'TOC5',EOT,'   '
                dc.b    'TOC4',EOT,'   '
                dc.b    'TOC3',EOT,'   '
                dc.b    'TOC2',EOT,'   '
                dc.b    'TOC1',EOT,'   '
                dc.b    'TIC3',EOT,'   '
                dc.b    'TIC2',EOT,'   '
                dc.b    'TIC1',EOT,'   '
                dc.b    'RTI',EOT,'    '
                dc.b    'IRQ',EOT,'    '
                dc.b    'XIRQ',EOT,'   '
                dc.b    'SWI',EOT,'    '
                dc.b    'ILLOP',EOT,'  '
                dc.b    'COP',EOT,'    '
                dc.b    'CLM',EOT,'    '

;------------------------------------------------------------------------------
; The jump tables and the vectors
;------------------------------------------------------------------------------

                org     $FF7C
WarmSt          jmp     Main                    ; WARMST
                org     $FF82
                jmp     RPrint                  ; RPRINT
                jmp     HexBin                  ; HEXBIN
                jmp     BuffArg                 ; BUFFARG
                jmp     TermArg                 ; TERMARG
                org     $FF91
                jmp     ReadBuff                ; READBUFF
                jmp     IncBuff                 ; INCBUFF
                jmp     DecBuff                 ; DECBUFF
                jmp     WSkip                   ; WSKIP
                jmp     ChkAbrt                 ; CHKABRT

                org     $FFA0
                jmp     UpCase                  ; UPCASE
                jmp     WChek                   ; WCHEK
                jmp     DChek                   ; DCHEK
                jmp     Init                    ; INIT
                jmp     Input                   ; INPUT
                jmp     Output                  ; OUTPUT
                jmp     OutLHlf                 ; OUTLHLF
                jmp     OutRHlf                 ; OUTRHLF
                jmp     OutA                    ; OUTA
                jmp     Out1Byt                 ; OUT1BYT
                jmp     Out1BSp                 ; OUT1BSP
                jmp     Out2BSp                 ; OUT2BSP
                jmp     OutCrLf                 ; OUTCRLF
                jmp     OutStrg                 ; OUTSTRG
                jmp     OutStrg0                ; OUTSTRG0
                jmp     InChar                  ; INCHAR
                jmp     VecInit                 ; VECINIT

                org     $FFD6
                dc.w    PseudoVectors+0         ; SCI
                dc.w    PseudoVectors+3         ; SPI
                dc.w    PseudoVectors+6         ; pulse accumulator edge
                dc.w    PseudoVectors+9         ; pulse accumulator overflow
                dc.w    PseudoVectors+12        ; timer overflow
                dc.w    PseudoVectors+15        ; TOC5
                dc.w    PseudoVectors+18        ; TOC4
                dc.w    PseudoVectors+21        ; TOC3
                dc.w    PseudoVectors+24        ; TOC2
                dc.w    PseudoVectors+27        ; TOC1
                dc.w    PseudoVectors+30        ; TIC3
                dc.w    PseudoVectors+33        ; TIC2
                dc.w    PseudoVectors+36        ; TIC1
                dc.w    PseudoVectors+39        ; real-time interrupt
                dc.w    PseudoVectors+42        ; IRQ
                dc.w    PseudoVectors+45        ; XIRQ
                dc.w    PseudoVectors+48        ; SWI
                dc.w    PseudoVectors+51        ; illegal opcode
                dc.w    PseudoVectors+54        ; COP failure
                dc.w    PseudoVectors+57        ; clock monitor
                dc.w    Cold                    ; reset
