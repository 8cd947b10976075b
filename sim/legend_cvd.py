"""The LED language without colour vision: can a player with protanopia,
deuteranopia or tritanopia tell apart the legend's entries (sim/legend.py)
that can show on the same seat at the same moment?

    python -m sim.legend_cvd        # every pair that meets: its ΔE2000 and its cue

Colours are the LEDs' rendered sRGB (legend_entry.css, the one mapping from
an LED's value to a screen), simulated with Machado et al. 2009 at severity
1.0 (colour-science: its matrix applied in linear RGB) and compared with
CIEDE2000 on CIE Lab (D65).  Two entries are distinguishable when

    colour  some LED lit in both has ΔE2000 >= MIN_DELTA_E after simulation,
    lit     else the LEDs lit differ (where, how many: no colour needed),
    blink   else one blinks and the other does not, or their blink frames light
            different LEDs.

A value entered or shown (a roll, a bid, the ring's trump or challenge)
changes the LEDs before the last one, so two such entries may light the same
LEDs: between them only the last LED, the marker that says what the value is,
counts (VALUE_SHOWN).  Host-only: colour-science never goes to the board.
"""

import functools
import sys
import warnings

import numpy as np

from dicetable.app import games
from dicetable.games import GAMES
from sim import legend, legend_entry, legend_match, legend_refusals

with warnings.catch_warnings():
    # colour-science says at import that its SciPy features are missing: none
    # of them is used here, and SciPy is not a dependency.
    warnings.filterwarnings("ignore", message='"SciPy" related API features')
    import colour
    from colour.utilities import ColourUsageWarning

MIN_DELTA_E = 20
DEFICIENCIES = ("protanopia", "deuteranopia", "tritanopia")
# Machado 2009's names: the anomaly at severity 1.0 is the dichromacy.
_MACHADO = {
    "protanopia": "Protanomaly",
    "deuteranopia": "Deuteranomaly",
    "tritanopia": "Tritanomaly",
}
NORMAL = "normal"  # no simulation: trichromats must lose nothing either

# Entries that show a value on the LEDs before the last; the last LED (the
# marker) says what the value is.
VALUE_SHOWN = frozenset(
    (
        "prompt-roll",
        "prompt-bid",
        "prompt-choose",
        "table-roll",
        "ring-dicefull",
        "ring-dtt",
        "ring-nokosu",
    )
)

# The moments of play (dicetable/app/render.py, menu.py, provision.py) and the
# entries one seat (or the ring) can show at each: a player reading their own
# seat must tell every two of a moment apart.  Seats and the ring are read
# apart (different LEDs), so a moment holds entries of one width.
_TRICK = ["trick-winner", "trick-leader", "trick-winner-leads"]
_SEAT = ["idle", "reader-fault"]  # any seat in a match (render._prompt, _errors)
MOMENTS = {
    # render._prompt: the seat asked shows the kind's prompt (a value being
    # entered: _entry's number with the kind's marker), every other seat of
    # the match idle; _errors puts a failed reader's red LED over any of them;
    # render._trick shows a trick's result over the prompts for 2 s (a seat
    # that did not win it may already be asked for the next round's first
    # action).  Each game asks for its own kinds (its match.py): a seat never
    # meets another game's.
    # DTwww: a white die's colour is chosen in the tricks, a die size in the
    # roll-off after them (the last trick's result may still show then).
    "asked in DTwww": [
        *_SEAT,
        "prompt-deal",
        "prompt-play",
        "prompt-roll",
        "white-die-colour",
        *_TRICK,
    ],
    "DTwww's roll-off": [*_SEAT, "prompt-roll", *_TRICK],
    "DTwww's roll-off, the table rolls": [*_SEAT, "prompt-choose", "table-roll", *_TRICK],
    "asked in Walzer": [*_SEAT, "prompt-deal", "prompt-pass-item", "prompt-play", *_TRICK],
    "asked in Dicefull": [  # no tricks; inputs.pass_action makes pick-or-pass
        *_SEAT,
        "prompt-pick",
        "prompt-pick-or-pass",
        "prompt-pass",
        "prompt-roll",
    ],
    "asked in d-TT": [*_SEAT, "prompt-deal", "prompt-keep", "prompt-bid", "prompt-play", *_TRICK],
    # Nokosu asks a centre die's PICK and its ZERO_BID at once (match.py): one
    # scan, then − / + chooses; PROMPTS gives both one colour.
    "asked in Nokosu": [
        *_SEAT,
        "prompt-deal",
        "prompt-zero-bid",
        "prompt-play",
        "prompt-roll",  # the start player enters the centre dice (players roll)
        "prompt-choose",
        *_TRICK,
    ],
    # render._roll: with table rolls the seat rolled for shows the number for
    # 2 s while the others keep their prompts; no seat enters a roll then.
    "the table rolls in DTwww": [
        *_SEAT,
        "table-roll",
        "prompt-deal",
        "prompt-play",
        "white-die-colour",
        *_TRICK,
    ],
    "the table rolls in Dicefull": [
        *_SEAT,
        "table-roll",
        "prompt-pick",
        "prompt-pick-or-pass",
        "prompt-pass",
    ],
    "the table rolls in Nokosu": [
        *_SEAT,
        "table-roll",
        "prompt-deal",
        "prompt-zero-bid",
        "prompt-play",
        *_TRICK,
    ],
    # render._score_shown / _standings: every seat shows its place; the
    # bar's length is the place (at one moment every seat plays the same
    # number of players: only 1st fills the segment).  At the match's end the
    # last trick's result shows over the places first.
    "scores and the match's end": [
        "place-1",
        "place-2",
        "place-3",
        "place-4",
        "reader-fault",
        *_TRICK,
    ],
    # render._errors: a refusal blinks over whatever the seat showed; red
    # counts the match's codes, purple the table's own.
    "a refusal": [
        *_SEAT,
        "prompt-play",
        *_TRICK,
        "place-1",
        *["refusal-%d" % c for c in legend_refusals.refusal_codes()],
    ],
    # menu.render / provision.render: the ring's sectors, the chosen one bright;
    # provisioning waits with a white chase.
    "the menu ring": [
        "starting-ring",
        "menu-dtwww",
        "menu-walzer",
        "menu-dicefull",
        "menu-dtt",
        "menu-nokosu",
        "menu-provision",
        "provision-wait",
    ],
    "a seat at the menu": ["starting-seat", "menu-joined", "dark"],
}

# render._ring, per game: the centre waits for a scan or an entry (a chase in
# the kind's colour), else the game's view or its colour dimmed, which is the
# game's own (the legend draws ring-colour in the first game's).
RINGS = {
    "nokosu": ["centre-deal", "centre-entry", "ring-colour", "ring-nokosu"],
    "dicefull": ["prompt-reveal", "ring-colour", "ring-dicefull"],
    "dtt": ["prompt-reveal", "ring-colour", "ring-dtt"],
}
RING_OF = {"the ring in " + games.title(GAMES.index(k)): GAMES.index(k) for k in RINGS}
MOMENTS.update(zip(RING_OF, RINGS.values(), strict=True))

# Entries in no moment, and why no other entry can be mistaken for them.
SHOWN_ALONE = {
    "number-27": "how a number reads: its meaning is its marker's, compared as the prompts'",
    "number-7": "how a number reads (see number-27)",
    "number-0": "how a number reads (see number-27)",
    "number-negative": "how a number reads (see number-27)",
    "number-binary": "how a number reads (see number-27)",
    "number-too-big": "how a number reads (see number-27)",
    "refusal-engine": "the group's example: the same frame as refusal-5",
    "refusal-table": "the group's example: the same frame as refusal-17",
    "confirm-abandon": "answers the long OK the player at the menu seat has just pressed",
    "match-over": "the ring's only pattern once the match is over",
    "menu-field-game": "the menu seat's field is named on the text display (menu.lines)",
    "menu-field-seats": "the menu seat's field is named on the text display (menu.lines)",
    "menu-field-hands": "the menu seat's field is named on the text display (menu.lines)",
    "menu-field-rolls": "the menu seat's field is named on the text display (menu.lines)",
    "menu-field-variant": "the menu seat's field is named on the text display (menu.lines)",
    "menu-field-length": "the menu seat's field is named on the text display (menu.lines)",
}


def _machado(deficiency):
    # colour-science warns that its tritan matrices approximate tritanopia by
    # a cone shift: the standard simulation all the same, asked for knowingly.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ColourUsageWarning)
        return colour.blindness.matrix_cvd_Machado2009(_MACHADO[deficiency], 1.0)


_MATRICES = {d: _machado(d) for d in DEFICIENCIES}


def screen(rgb):
    """An LED's (r, g, b) as the sRGB a screen shows (legend_entry.css), 0-1."""
    hex_ = legend_entry.css(rgb)[1:]
    return np.array([int(hex_[i : i + 2], 16) / 255 for i in (0, 2, 4)])


def simulate(srgb, deficiency):
    """sRGB (0-1) as seen with `deficiency` (NORMAL: unchanged): the matrix
    applies to linear light, clipped back into the sRGB gamut."""
    if deficiency == NORMAL:
        return srgb
    linear = colour.models.eotf_sRGB(srgb)
    return colour.models.eotf_inverse_sRGB(np.clip(_MATRICES[deficiency] @ linear, 0, 1))


def _lab(srgb):
    return colour.XYZ_to_Lab(colour.sRGB_to_XYZ(srgb))


@functools.cache
def css(rgb, deficiency=NORMAL):
    """An LED colour (r, g, b) as "#rrggbb" on a screen, as seen with `deficiency`."""
    srgb = simulate(screen(rgb), deficiency)
    return "#" + "".join("%02x" % round(255 * float(v)) for v in srgb)


@functools.cache
def delta_e(a, b, deficiency=NORMAL):
    """CIEDE2000 between two LED colours (r, g, b) as seen with `deficiency`."""
    x, y = (_lab(simulate(screen(c), deficiency)) for c in (a, b))
    return float(colour.delta_E(x, y, method="CIE 2000"))


def _lit(leds):
    return [any(c) for c in leds]


def _compared(a, b):
    # The LEDs of a and b that count (VALUE_SHOWN: the markers alone).
    if a["key"] in VALUE_SHOWN and b["key"] in VALUE_SHOWN:
        return a["leds"][-1:], b["leds"][-1:]
    return a["leds"], b["leds"]


def shape_cue(a, b):
    """What tells entries a and b apart without any colour: "lit" (where, how
    many LEDs), "blink", or None."""
    leds_a, leds_b = _compared(a, b)
    if _lit(leds_a) != _lit(leds_b):
        return "lit"
    blink_a, blink_b = a["blink"], b["blink"]
    if (blink_a is None) != (blink_b is None) or (
        blink_a is not None and _lit(blink_a) != _lit(blink_b)
    ):
        return "blink"
    return None


def compare(a, b, deficiency):
    """(cue, ΔE) for entries a and b: the cue that tells them apart ("colour",
    "lit", "blink", or None: not distinguishable) and the largest ΔE2000 of an
    LED lit in both (0 when none is), as seen with `deficiency`."""
    leds_a, leds_b = _compared(a, b)
    both = [(x, y) for x, y in zip(leds_a, leds_b, strict=True) if any(x) and any(y)]
    best = max((delta_e(tuple(x), tuple(y), deficiency) for x, y in both), default=0.0)
    if best >= MIN_DELTA_E:
        return "colour", best
    return shape_cue(a, b), best


def pairs():
    """[(moment, entry a, entry b)]: every two entries of a moment (on a
    game's ring, RINGS, the ring-colour entry in that game's colour)."""
    by_key = {e["key"]: e for e in legend.entries()}
    out = []
    for moment, keys in MOMENTS.items():
        here = by_key
        if moment in RING_OF:
            here = dict(by_key, **{"ring-colour": legend_match.ring_colour(RING_OF[moment])})
        for i, a in enumerate(keys):
            for b in keys[i + 1 :]:
                out.append((moment, here[a], here[b]))
    return out


def measure():
    """[(moment, key a, key b, colour alone?, {view: (cue, ΔE)})] for NORMAL
    and DEFICIENCIES; `colour alone` when no shape_cue tells the two apart."""
    return [
        (
            m,
            a["key"],
            b["key"],
            shape_cue(a, b) is None,
            {v: compare(a, b, v) for v in (NORMAL, *DEFICIENCIES)},
        )
        for m, a, b in pairs()
    ]


def main(argv=None):
    args = sys.argv[1:] if argv is None else argv
    if args:
        usage = "python -m sim.legend_cvd takes no arguments (it prints every pair that meets)"
        if args in (["-h"], ["--help"]):
            print(usage)
            return 0
        print("legend_cvd: no argument %r: %s" % (args[0], usage), file=sys.stderr)
        return 2
    rows = measure()
    views = (NORMAL, *DEFICIENCIES)
    head = "%-28s %-22s %-22s %-6s " % ("moment", "a", "b", "only")
    print(head + " ".join("%-14s" % v for v in views))
    for m, a, b, alone, by in rows:
        cells = ["%-6s %5.1f  " % (by[v][0] or "NONE", by[v][1]) for v in views]
        only = "colour" if alone else ""
        print("%-28s %-22s %-22s %-6s " % (m, a, b, only) + " ".join(cells))
    alone = sum(1 for *_, only, _ in rows if only)
    print("%d pairs meet, %d of them told apart by colour alone" % (len(rows), alone))
    for v in views:
        failing = [(m, a, b) for m, a, b, _, by in rows if by[v][0] is None]
        least = min(by[v][1] for *_, only, by in rows if only)
        print(
            "%-13s %d not distinguishable; least ΔE2000 of a pair told by colour alone %.1f"
            % (v, len(failing), least)
        )
        for m, a, b in failing:
            print("    %s: %s / %s" % (m, a, b))
    return 0


if __name__ == "__main__":
    sys.exit(main())
