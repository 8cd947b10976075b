"""The 5 V power budget and the part counts, computed from the firmware's build.

hardware/power.md and hardware/bom.md quote these numbers; the test
tests/test_hardware_docs.py checks that they still match table_config.py and
pins.py.  `python -m hardware.budget` prints them.
"""

import math

from hardware.pinmap import CONFIG, PINS, ROOT, load

LED_MA_PER_CHANNEL = 20  # a WS2812B channel at full brightness (hal/pixels.estimate_ma)
LED_IDLE_MA = 1  # a dark WS2812B (its controller)
READER_MA = 30  # an MFRC522 polling (the field on, typical)
PICO_MA = 50  # the Pico at 125 MHz with USB, generous
DISPLAY_MA = 20  # the optional SSD1306, all pixels on
HEADROOM = 1.25  # the supply is sized 25 % above the worst case
SUPPLY_STEP_MA = 500  # supplies come in half-ampere steps


# The firmware's own count (dicetable/app/frames.py, which hal/board.py sizes the
# NeoPixel chain with), read as pinmap reads pins.py: no sys.path change.
_FRAMES = load(ROOT / "firmware" / "dicetable" / "app" / "frames.py")


def leds(config):
    """LEDs on the chain: a segment for every seat up to the last fitted, then the ring."""
    return _FRAMES.led_count(config)


def readers(config):
    return len(config.seats) + 1  # the seats' and the centre's


def rows(config):
    """[(item, count, mA each or None, mA)] of the worst-case 5 V draw."""
    n = leds(config)
    full_white = n * (3 * LED_MA_PER_CHANNEL + LED_IDLE_MA)
    led_ma = min(full_white, config.CURRENT_BUDGET_MA)
    return [
        ("WS2812B LEDs (capped by CURRENT_BUDGET_MA)", n, None, led_ma),
        ("MFRC522 readers", readers(config), READER_MA, readers(config) * READER_MA),
        ("Raspberry Pi Pico", 1, PICO_MA, PICO_MA),
        ("SSD1306 display (optional)", 1, DISPLAY_MA, DISPLAY_MA),
    ]


def total_ma(config):
    return sum(r[3] for r in rows(config))


def supply_ma(config):
    """The supply to buy: the worst case plus headroom, rounded up to a half ampere."""
    need = math.ceil(total_ma(config) * HEADROOM)
    return -(-need // SUPPLY_STEP_MA) * SUPPLY_STEP_MA


def counts(pins, config):
    """{part: quantity} for the build the firmware describes."""
    seats = len(config.seats)
    return {
        "Raspberry Pi Pico": 1,
        "MFRC522 module": readers(config),
        "WS2812B LED": leds(config),
        "tactile push button": 3 * seats + 1,  # − + OK per seat, maintenance
        "74HC138": 1 if len(pins.CS_ADDRESS) == 3 else 0,
        "74AHCT125": 1,
    }


def main():
    pins, config = load(PINS), load(CONFIG)
    for item, n, each, ma in rows(config):
        print("%-45s %4d x %4s = %5d mA" % (item, n, each if each is not None else "-", ma))
    print("total %d mA; supply 5 V %d mA" % (total_ma(config), supply_ma(config)))
    for part, n in counts(pins, config).items():
        print("%4d  %s" % (n, part))


if __name__ == "__main__":
    main()
