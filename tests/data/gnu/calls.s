; calls.s: main program; its subroutines come from calls_inc.s via .include.
	.text
	.globl	main
main:
	lds	#0x3fff
	ldx	#message
again:
	jsr	putmsg
	bra	again

	.include "calls_inc.s"

	.data
message:
	.ascii	"Hi"
	.byte	0
