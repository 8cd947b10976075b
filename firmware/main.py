"""Start the table (boot.py has already checked the maintenance button)."""

import sys

import maintenance

if not maintenance.requested():
    # The rp2 port looks for an extensible built-in (time, array ...) on the
    # filesystem before taking its own, at every import of it: six LittleFS
    # lookups each time (docs/firmware.md, "Power-up").  Imported once here
    # by its u-name, which takes the built-in at once, and put in sys.modules
    # under its own name, it is found there by every later import.
    import uarray
    import uos
    import urandom
    import uselect
    import ustruct
    import utime

    for module in (uarray, uos, urandom, uselect, ustruct, utime):
        sys.modules[module.__name__] = module

    from hal.board import run

    run()
