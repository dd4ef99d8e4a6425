; compute-only: count 5,000,000 iterations of a 16-bit loop, store the result
            org $0080           ; RAM, in the direct page
result      ds.w 1
            org $C000
Start       lds  #$7FFF
            ldy  #200
outer       ldx  #25000
inner       dex
            bne  inner
            dey
            bne  outer
            ldd  #$BEEF
            std  result
            sei
done        bra  done
            org  $FFFE
            dc.w Start
