; copy.s: copies initialised data from its ROM image to RAM (link with trainer11_rom.ld).
	.text
	.globl	main
main:
	lds	#0x3fff
	ldx	#__data_image
	ldy	#__data_start
	ldab	#__data_size
copy:
	ldaa	0,x
	staa	0,y
	inx
	iny
	decb
	bne	copy
	ldd	greeting
	std	0x0100
stop:
	bra	stop

	.data
greeting:
	.word	0x1234
	.byte	0x56, 0x78
