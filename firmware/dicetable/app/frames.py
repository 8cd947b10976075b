"""LED frames: the colours of the table and the patterns drawn with them.

A frame is a bytearray of 3 bytes per LED in the order the LED chain takes
them (WS2812B: green, red, blue; ORDER says where R, G and B go), so that the
board sends it as it is; the colours here are (R, G, B).  Seat s owns LEDs
[s * LEDS_PER_SEAT, (s + 1) * LEDS_PER_SEAT), the ring follows the last seat.
Everything here writes into a caller's preallocated buffer and allocates
nothing.  The legend a player reads is docs/table.md ("What the LEDs say").

Colours stay at a quarter of full scale or less: hal/pixels.py scales a frame
down further when the estimated current would exceed the supply's budget.
"""

from micropython import const

ORDER = (1, 0, 2)  # where R, G and B go within an LED's bytes: G, R, B
OFF = (0, 0, 0)
IDLE = (3, 3, 3)  # a seat in the match that is not waited on
WHITE = (32, 32, 32)
RED = (48, 0, 0)
GREEN = (0, 48, 0)
BLUE = (0, 0, 48)
YELLOW = (40, 32, 0)
ORANGE = (48, 16, 0)
CYAN = (0, 40, 40)
MAGENTA = (40, 0, 40)
VIOLET = (20, 0, 48)
LIME = (20, 48, 0)
PINK = (48, 8, 24)
GREY = (8, 8, 8)
DIM_CYAN = (0, 5, 5)

# What a seat is asked for, by action kind (actions.py numbers the kinds).
# Kinds of different games may share a colour (no seat meets both); every two
# patterns one seat can show at once stay apart for colour-blind eyes too
# (python -m sim.legend_cvd measures them; docs/table.md "For colour-blind players").
#         -    DEAL  PLAY   ROLL    PASS_ITEM KEEP    BID      PICK  PASS  ZERO_BID REVEAL CHOOSE
PROMPTS = (OFF, CYAN, WHITE, ORANGE, GREEN, GREEN, MAGENTA, LIME, PINK, LIME, WHITE, VIOLET)

# Numbers: ten, five and one LEDs; binary when they would not fit.
TEN = BLUE
FIVE = WHITE
ONE = GREEN
BINARY = VIOLET
NEGATIVE = PINK  # marker of a negative number

# Refusals: red counts the match engine's code, purple the table's own.
ERROR = RED
TAG_ERROR = (32, 0, 48)
APP_CODES = const(16)  # refusal codes from here up are the table's own

WINNER = (40, 0, 0)  # trick result: the seat that won it (red, steady: a refusal blinks)
LEADER = BLUE  # trick result: the seat that leads next
PLACES = ((48, 32, 0), (20, 20, 28), (40, 12, 0), (16, 0, 0))  # gold, silver, bronze, other

# Provisioning's sector of the menu ring, after the games' (each game's
# colour is its entry in dicetable.games).
PROVISION_RGB = (48, 8, 24)

# What a game's table module says a seat, the ring or an entry shows: a
# number (or None) and a colour.  One list, filled by view(), read at once:
# drawing a frame allocates nothing.
VIEW = [None, OFF]

BLINK_MS = const(250)  # error blink half-period
CHASE_MS = const(125)  # ring chase step while the centre waits for a scan


def led_count(config):
    """The LEDs on the chain: a segment for every seat up to the last fitted,
    then the ring (config: table_config's seats, LEDS_PER_SEAT, RING_LEDS)."""
    return (max(config.seats) + 1) * config.LEDS_PER_SEAT + config.RING_LEDS


def view(number, colour):
    """VIEW holding `number` and `colour` (a game's entry_view, ring_view and
    deal_progress answer with it; the caller reads it before the next)."""
    VIEW[0] = number
    VIEW[1] = colour
    return VIEW


class Layout:
    """Where each seat's LEDs and the ring are in the frame."""

    def __init__(self, config):
        self.width = config.LEDS_PER_SEAT
        self.ring_leds = config.RING_LEDS
        self.ring = (max(config.seats) + 1) * self.width
        self.leds = led_count(config)

    def first(self, seat):
        """The first LED of a seat's segment."""
        return seat * self.width


def put(buf, led, c, shift=0):
    """Set one LED to colour c = (R, G, B), dimmed by `shift` bits."""
    i = 3 * led
    buf[i] = c[1] >> shift  # G, R, B: ORDER
    buf[i + 1] = c[0] >> shift
    buf[i + 2] = c[2] >> shift


def fill(buf, first, n, c, shift=0):
    """Set n LEDs from `first` (dimmed by `shift` bits)."""
    # Every frame is mostly fills: the loop is put() inlined (a call per LED
    # was most of a frame's time).
    r = c[0] >> shift
    g = c[1] >> shift
    b = c[2] >> shift
    i = 3 * first
    end = i + 3 * n
    while i < end:
        buf[i] = g  # G, R, B: ORDER
        buf[i + 1] = r
        buf[i + 2] = b
        i += 3


def number(buf, first, width, n, marker, ones=ONE):
    """Show the int `n` on `width` LEDs: the last LED is the marker (what is
    shown), the others from the first hold tens (blue), a five (white) and
    ones (green, or `ones`).  A value needing more LEDs is shown in binary (violet,
    lowest bit first), a value too large for that lights them all.  A
    negative number shows its size with a pink marker."""
    fill(buf, first, width, OFF)
    if n < 0:
        n = -n
        marker = NEGATIVE
    put(buf, first + width - 1, marker)
    room = width - 1
    tens = n // 10
    fives = (n % 10) // 5
    units = n % 5
    led = first
    if tens + fives + units <= room:
        for _ in range(tens):
            put(buf, led, TEN)
            led += 1
        if fives:
            put(buf, led, FIVE)
            led += 1
        for _ in range(units):
            put(buf, led, ones)
            led += 1
    elif n < (1 << room):
        for b in range(room):
            if (n >> b) & 1:
                put(buf, led + b, BINARY)
    else:
        fill(buf, led, room, BINARY)


def refusal(buf, first, width, code, lit):
    """The error pattern of refusal `code` (blinking: `lit` is the on phase).
    Engine codes are counted in red LEDs, the table's own (APP_CODES up) in
    purple; a count longer than the segment falls back to number()."""
    colour = ERROR
    if code >= APP_CODES:
        code -= APP_CODES
        colour = TAG_ERROR
    if not lit:
        fill(buf, first, width, OFF)
    elif code <= width:
        fill(buf, first, width, OFF)
        fill(buf, first, code, colour)
    else:
        number(buf, first, width, code, colour, colour)


def progress(buf, first, width, have, need, c, rest):
    """A bar filling as items are scanned: have/need of the segment in `c`."""
    lit = width if need <= 0 else (have * width) // need
    if have and not lit:
        lit = 1  # the first scan always shows
    fill(buf, first, width, rest)
    fill(buf, first, lit, c)


def place(buf, first, width, place_no, players):
    """A final or round place: gold, silver, bronze, then red; the bar is
    longer the better the place (1st: the whole segment)."""
    c = PLACES[min(place_no, 4) - 1]
    lit = (width * (players - place_no + 1)) // players
    fill(buf, first, width, OFF)
    fill(buf, first, max(lit, 1), c)


def sectors(buf, first, width, count, chosen, colour_of):
    """The ring split in `count` sectors, `chosen` bright, the others dim;
    sector i in colour_of(i)."""
    for i in range(count):
        a = first + (i * width) // count
        b = first + ((i + 1) * width) // count
        fill(buf, a, b - a, colour_of(i), 0 if i == chosen else 3)


def starting(buf, config):
    """The power-up's frame (hal/board.py lights it before the app is
    loaded): the centre ring and each fitted seat's first LED dim white,
    until the menu or the resumed match takes over."""
    width = config.LEDS_PER_SEAT
    for s in config.seats:
        put(buf, s * width, GREY)
    fill(buf, led_count(config) - config.RING_LEDS, config.RING_LEDS, GREY)


def chase(buf, first, width, now, c):
    """One bright LED running round over a dim copy of `c` (the centre waits)."""
    fill(buf, first, width, c, 3)
    put(buf, first + (now // CHASE_MS) % width, c)
