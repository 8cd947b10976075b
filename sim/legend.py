"""The LED legend: every pattern the table draws, what it means, where it shows.

entries() is the one list the pictures (tools/pictures.py writes
docs/img/led-legend.svg) and the simulator's web page read.  Every entry's
LEDs are drawn by the firmware's own pattern code (dicetable/app/frames.py:
fill, number, refusal, progress, place, sectors, chase, PROMPTS...) into a
bytearray and read back through frames.ORDER, never typed in here, so the
legend cannot drift from what the board shows.  The words say when each
pattern shows, as dicetable/app/render.py (and menu.py, provision.py) decide.

The groups' entries live by what they show: sim/legend_match.py (a match in
play: what a seat is asked for, numbers, results, the ring),
sim/legend_refusals.py (the error pattern and every code) and
sim/legend_menu.py (power-up, the menu, provisioning); sim/legend_entry.py
makes an entry and draws its LEDs.

An entry is a dict (plain lists and strings: JSON as it is):

    key      short id, unique: "prompt-play", "refusal-5", "menu-dtwww"...
    group    the section it belongs to (GROUPS gives the titles, in order)
    name     a few words: "your turn to play"
    meaning  one sentence a player understands
    where    which LEDs show it: "the seat asked", "the centre ring"...
    leds     [[r, g, b], ...]: one frame of the segment (a seat's LEDs, or the ring's)
    blink    the other frame of a blinking pattern, or None
"""

from dicetable.app import frames as fr
from sim.legend_match import asked, numbers, results, ring
from sim.legend_menu import menu
from sim.legend_refusals import codes, refusals

BLINK_MS = fr.BLINK_MS  # a blinking pattern's half-period: `leds`, then `blink`

GROUPS = (
    ("asked", "What a seat is asked for"),
    ("numbers", "Numbers"),
    ("results", "Results"),
    ("refusals", "Refusals (the error pattern)"),
    ("codes", "Every refusal code"),
    ("ring", "The centre ring"),
    ("menu", "Power-up, the menu and provisioning"),
)


def entries():
    """Every pattern of the LED language, in GROUPS order (see the module's docstring)."""
    return asked() + numbers() + results() + refusals() + codes() + ring() + menu()


def groups():
    """[(group, title)] in the order entries() gives them."""
    return list(GROUPS)
