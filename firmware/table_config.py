"""How this table is built: the seats fitted, the LEDs, the power budget.

Change it to match the hardware; pins.py says where each part is wired.
"""

# The seats that have a reader, buttons and an LED segment (seat numbers are
# clockwise; the default build has five, see pins.py).
seats = (0, 1, 2, 3, 4)

# LEDs per seat segment, then the centre ring, on one NeoPixel chain.
LEDS_PER_SEAT = 8
RING_LEDS = 16

# What the 5 V supply may give the LEDs, after the board and readers: the
# pixel driver dims a frame whose estimated draw would exceed it.
CURRENT_BUDGET_MA = 2500

# The readers' SPI clock.  The MFRC522 takes up to 10 MHz; long cables to the
# seats are happier slower.
SPI_BAUDRATE = 4000000
