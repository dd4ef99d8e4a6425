        include Util.inc
        include nothing.inc
