"""What the hardware tells the table app, and the names of the readers and buttons.

Readers: seat readers are numbered as their seats (0..5); CENTRE is the centre
reader.  Buttons: each seat has MINUS, PLUS and OK; LONG is added to the
button number for a long press (a long MINUS is undo).
"""

from micropython import const

MAX_SEATS = const(6)
CENTRE = const(6)

# Reader events (the driver reports each only after a confirming re-read).
TAG_PLACED = const(1)  # a tag arrived: its UID (4 or 7 bytes) comes with it
TAG_REMOVED = const(2)  # the tag left the antenna
TWO_TAGS = const(3)  # two tags answered at once: neither is read
READER_FAULT = const(4)  # the reader stopped answering (it is being re-initialised)
READER_OK = const(5)  # the reader answers again after a fault

# Buttons.
MINUS = const(0)
PLUS = const(1)
OK = const(2)
LONG = const(4)  # added for a long press: MINUS + LONG is undo
