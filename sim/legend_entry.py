"""One entry of the LED legend (sim/legend.py): its dict, and its LEDs drawn
by the firmware's own pattern code (dicetable/app/frames.py) into a bytearray
and read back through frames.ORDER; with the draws and the places (`where`)
that several of the legend's groups share."""

import table_config

from dicetable.app import frames as fr

SEAT_LEDS = table_config.LEDS_PER_SEAT
RING_LEDS = table_config.RING_LEDS

RING = "the centre ring"
MENU_SEAT = "the menu seat"


def read(buf, width):
    """The (r, g, b) of each of `width` LEDs of a frame, read through frames.ORDER."""
    r, g, b = fr.ORDER
    return [[buf[3 * i + r], buf[3 * i + g], buf[3 * i + b]] for i in range(width)]


def frame(width, draw):
    """The LEDs `draw(buf, width)` lights on a segment of `width` LEDs (a fresh, dark buffer)."""
    buf = bytearray(3 * width)
    draw(buf, width)
    return read(buf, width)


def entry(key, group, name, meaning, where, width, draw, blink=None):
    return {
        "key": key,
        "group": group,
        "name": name,
        "meaning": meaning,
        "where": where,
        "leds": frame(width, draw),
        "blink": None if blink is None else frame(width, blink),
    }


def fill(colour, shift=0):
    return lambda buf, w: fr.fill(buf, 0, w, colour, shift)


def number(n, marker):
    return lambda buf, w: fr.number(buf, 0, w, n, marker)


def fill_last(colour, last):
    # A fill with its last LED another colour (a pick that may pass, a reader fault).
    def draw(buf, w):
        fr.fill(buf, 0, w, colour)
        fr.put(buf, w - 1, last)

    return draw


def chase(colour):
    return lambda buf, w: fr.chase(buf, 0, w, 0, colour)


def css(rgb):
    """An LED colour for a screen, "#rrggbb": each channel v (0-255, the table's
    colours stay at 64 and below) as 255 * (v / 64) ** 0.6, so that a dim LED
    (an idle seat's 3) stays visible and still darker than a bright one."""
    return "#" + "".join("%02x" % min(255, round(255 * (v / 64) ** 0.6)) for v in rgb)
