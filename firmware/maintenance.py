"""The maintenance button: held at power-up, the table app does not start, so
the board stays at the REPL for mpremote (flashing, backups) even if the
app or its data were broken."""

from machine import Pin

import pins


def requested():
    return Pin(pins.MAINTENANCE, Pin.IN, Pin.PULL_UP).value() == 0
