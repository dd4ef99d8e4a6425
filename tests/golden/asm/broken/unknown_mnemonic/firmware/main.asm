        org     $C000
        include Board.inc
