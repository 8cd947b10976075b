"""What the RP2040 allows on each GPIO a Raspberry Pi Pico brings out.

The one place the project keeps the chip's function tables: the pin-map
generator (hardware/pinmap.py) and the tests read them.  From the RP2040
datasheet, section 2.19.2 "Function Select": the SPI and I2C functions repeat
with the GPIO number, so they are computed here rather than typed in.
"""

# GP0-GP22 and GP26-GP28 are on the Pico's header; GP23-GP25 and GP29 drive the
# board's own regulator mode, VBUS sense, LED and VSYS/3 ADC.
PICO_GPIOS = frozenset(range(23)) | frozenset((26, 27, 28))

SPI_ROLES = ("RX", "CSn", "SCK", "TX")  # GPIO n: role n % 4 (RX = MISO, TX = MOSI)
I2C_ROLES = ("SDA", "SCL")  # GPIO n: role n % 2


def spi_function(gpio):
    """(bus, role) of the SPI function on `gpio`: SPI0 on GP0-7 and GP16-23, SPI1 on the rest."""
    return (gpio // 8) % 2, SPI_ROLES[gpio % 4]


def i2c_function(gpio):
    """(bus, role) of the I2C function on `gpio`: the buses alternate every two GPIOs."""
    return (gpio // 2) % 2, I2C_ROLES[gpio % 2]


def spi_pins(bus, role):
    """The Pico GPIOs that can carry `role` ("RX", "CSn", "SCK", "TX") of SPI `bus`."""
    return frozenset(g for g in PICO_GPIOS if spi_function(g) == (bus, role))


def i2c_pins(bus, role):
    """The Pico GPIOs that can carry `role` ("SDA", "SCL") of I2C `bus`."""
    return frozenset(g for g in PICO_GPIOS if i2c_function(g) == (bus, role))


# The Pico's 40-pin header: GPIO -> physical pin (pins 3, 8, 13, 18, 23, 28, 33, 38
# are ground; 30 RUN, 35 ADC_VREF, 36 3V3(OUT), 37 3V3_EN, 39 VSYS, 40 VBUS).
PICO_PIN = {
    0: 1,
    1: 2,
    2: 4,
    3: 5,
    4: 6,
    5: 7,
    6: 9,
    7: 10,
    8: 11,
    9: 12,
    10: 14,
    11: 15,
    12: 16,
    13: 17,
    14: 19,
    15: 20,
    16: 21,
    17: 22,
    18: 24,
    19: 25,
    20: 26,
    21: 27,
    22: 29,
    26: 31,
    27: 32,
    28: 34,
}
PICO_GROUND_PINS = (3, 8, 13, 18, 23, 28, 33, 38)
PICO_3V3_OUT = 36
PICO_VSYS = 39
PICO_VBUS = 40
