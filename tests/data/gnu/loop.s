; loop.s: a counting loop, a subroutine called with jsr, data in .data.
	.text
	.globl	main
main:
	lds	#0x3fff
	ldab	#0
outer:
	ldaa	#10
inner:
	deca
	bne	inner
	jsr	add3
	stab	counter
	bra	outer

; add3: B = B + 3
	.globl	add3
add3:
	addb	#3
	rts

	.data
counter:
	.byte	0
table:
	.byte	1, 2, 3, 4

	.section .vectors,"a"
	.word	main	; reset vector ($FFFE)
