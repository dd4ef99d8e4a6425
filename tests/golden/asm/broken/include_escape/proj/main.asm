        include ../secret.inc
        include ..\secret.inc
