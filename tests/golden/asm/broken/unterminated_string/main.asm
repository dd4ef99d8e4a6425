text    dc.b    "Player 1 won
        ldaa    #'x
