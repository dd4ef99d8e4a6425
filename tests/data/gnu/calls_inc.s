; calls_inc.s: included by calls.s
putmsg:
	ldaa	0,x
	beq	done
	jsr	putc
	inx
	bra	putmsg
done:
	rts
putc:
	staa	0x102f
	rts
