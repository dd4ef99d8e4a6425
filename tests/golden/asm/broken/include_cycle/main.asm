        include a.inc
