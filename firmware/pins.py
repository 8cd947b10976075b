"""The pin map of the dice table on a Raspberry Pi Pico (RP2040).

This is the only file in the project where a GPIO number appears: drivers,
board set-up, tests and the hardware documents all read it.  Constants only,
plain ints and tuples.

The default build is FIVE SEATS AND THE CENTRE.  No game the table runs has
more than five players, and the Pico brings out 26 usable GPIOs (GP0-GP22,
GP26-GP28); five seats and the centre wired one wire per signal would need
29 (3 SPI + 6 chip selects + reset + 15 buttons + LEDs + 2 I2C + maintenance).
The six reader chip selects therefore go through a 74HC138 3-to-8 decoder
(3 address pins instead of 6), and the build then uses all 26 GPIOs exactly:

    GP0-GP14   seat buttons, 3 per seat (minus, plus, ok), pressed = low
    GP15       maintenance button, checked at boot, pressed = low
    GP16       SPI0 MISO  (all readers)
    GP17       decoder A0
    GP18       SPI0 SCK   (all readers)
    GP19       SPI0 MOSI  (all readers)
    GP20       decoder A1
    GP21       decoder A2
    GP22       reader reset (NRSTPD of every MFRC522, active low)
    GP26       I2C1 SDA   (optional SSD1306 at 0x3C)
    GP27       I2C1 SCL
    GP28       NeoPixel data: the seats in order, then the centre ring

A sixth seat needs its three buttons on an I/O expander; its reader already
has a decoder output (CS_LINE[5]).
"""

# Seat buttons: (minus, plus, ok) per seat, in seat order.  Wired to ground
# with the internal pull-ups; long cables to a seat want an external 10 k
# pull-up and 100 nF to ground as well, or they pick up the LED data line.
BUTTONS = (
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),
    (9, 10, 11),
    (12, 13, 14),
)

# Held low at power-up: boot into maintenance (USB file access, no table app).
MAINTENANCE = 15

# The readers share SPI0 (GP16/18/19 are SPI0's RX, SCK and TX functions).
SPI_ID = 0
SPI_MISO = 16
SPI_SCK = 18
SPI_MOSI = 19

# Chip selects through a 74HC138 (E1, E2 tied low, E3 high): the address on
# A0..A2 pulls exactly one output Y0..Y7 low.  Reader i is selected by
# address CS_LINE[i] (seats 0-5, then the centre, events.CENTRE = 6), and
# CS_IDLE selects no reader.  CS_IDLE is 0 because the RP2040 resets every
# GPIO to an input with a pull-down, so before the firmware runs the address
# reads 0 and no reader is selected.  While the address lines change one at a
# time a different output can dip low for a few nanoseconds; SCK is idle then,
# so the reader it reaches sees no clock edge and ignores it.
CS_ADDRESS = (17, 20, 21)  # A0, A1, A2
CS_LINE = (1, 2, 3, 4, 5, 6, 7)
CS_IDLE = 0

# Shared NRSTPD of every reader: low = hard power-down and reset.
READER_RESET = 22

# Optional SSD1306 128x64 text display on I2C1 (GP26/GP27 are I2C1 SDA/SCL).
I2C_ID = 1
I2C_SDA = 26
I2C_SCL = 27
DISPLAY_ADDRESS = 0x3C

# One NeoPixel (WS2812B) chain.  The LEDs run on 5 V and want a data high of
# at least 3.5 V, so the 3.3 V output goes through a 74AHCT125 level shifter
# (and a 330 ohm series resistor at the first LED).
NEOPIXEL = 28
