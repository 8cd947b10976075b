"""The LED language without colour vision (sim/legend_cvd.py): every two
legend entries one seat (or the ring) can show at the same moment stay
distinguishable for protanopia, deuteranopia and tritanopia (and normal
vision), and the check itself can fail."""

import types

import pytest

from dicetable.app import games
from dicetable.games import GAMES
from dicetable.games.dtwww import rules as dtwww_rules
from sim import legend, legend_cvd, legend_entry, legend_match

KEYS = {e["key"] for e in legend.entries()}
VIEWS = (legend_cvd.NORMAL, *legend_cvd.DEFICIENCIES)
PAIRS = legend_cvd.pairs()
W = 8
RING = legend_entry.RING_LEDS


def told_apart(shown):
    """Every two of the entries `shown` told apart in every view."""
    for i, a in enumerate(shown):
        for b in shown[i + 1 :]:
            for view in VIEWS:
                assert legend_cvd.compare(a, b, view)[0] is not None, (a["key"], b["key"], view)


def _entry(key, leds, blink=None):
    return {"key": key, "leds": [list(c) for c in leds], "blink": blink}


@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize(
    ("moment", "a", "b"), PAIRS, ids=["%s: %s/%s" % (m, a["key"], b["key"]) for m, a, b in PAIRS]
)
def test_every_pair_that_meets_is_distinguishable(moment, a, b, view):
    cue, delta = legend_cvd.compare(a, b, view)
    assert cue is not None, "%s: %s and %s look alike (ΔE2000 %.1f)" % (
        moment,
        a["key"],
        b["key"],
        delta,
    )


def test_every_key_of_a_moment_is_a_legend_entry():
    for moment, keys in legend_cvd.MOMENTS.items():
        assert set(keys) <= KEYS, (moment, set(keys) - KEYS)
        assert len(set(keys)) == len(keys), moment
    assert set(legend_cvd.SHOWN_ALONE) <= KEYS
    assert legend_cvd.VALUE_SHOWN <= KEYS


def test_every_entry_meets_in_a_moment_or_says_why_not():
    met = {k for keys in legend_cvd.MOMENTS.values() for k in keys}
    assert KEYS - met == set(legend_cvd.SHOWN_ALONE)
    assert not met & set(legend_cvd.SHOWN_ALONE)
    assert all(legend_cvd.SHOWN_ALONE.values())


def test_a_moment_holds_one_width():
    by_key = {e["key"]: e for e in legend.entries()}
    for moment, keys in legend_cvd.MOMENTS.items():
        assert len({len(by_key[k]["leds"]) for k in keys}) == 1, moment


def test_red_and_green_alike_fail_for_red_green_blindness():
    red = _entry("red", [(48, 0, 0)] * W)
    green = _entry("green", [(0, 48, 0)] * W)
    # Trichromats see them apart; without the M cones the two are one olive
    # (ΔE2000 under 20) and nothing else tells them apart.  Without the L
    # cones red is much darker than green: lightness still tells them apart.
    assert legend_cvd.compare(red, green, legend_cvd.NORMAL)[0] == "colour"
    assert legend_cvd.compare(red, green, "deuteranopia")[0] is None
    assert legend_cvd.compare(red, green, "protanopia")[0] == "colour"
    assert legend_cvd.compare(red, green, "tritanopia")[0] == "colour"


def test_green_and_cyan_alike_fail_for_tritanopia():
    green = _entry("green", [(0, 48, 0)] * W)
    cyan = _entry("cyan", [(0, 40, 40)] * W)
    assert legend_cvd.compare(green, cyan, "tritanopia")[0] is None


def test_where_lit_and_blink_are_cues_without_colour():
    red = [(48, 0, 0)] * W
    green = [(0, 48, 0)] * W
    fewer = _entry("fewer", red[:3] + [(0, 0, 0)] * (W - 3))
    assert legend_cvd.compare(_entry("g", green), fewer, "deuteranopia")[0] == "lit"
    blinking = _entry("blinking", red, blink=[[0, 0, 0]] * W)
    assert legend_cvd.compare(_entry("g", green), blinking, "deuteranopia")[0] == "blink"
    # Two blinking patterns that light the same LEDs, both dark in between: only colour.
    other = _entry("other", green, blink=[[0, 0, 0]] * W)
    assert legend_cvd.compare(other, blinking, "deuteranopia")[0] is None


def test_two_values_are_told_by_their_markers_alone():
    # A value changes the LEDs before the marker: two entries that show
    # values must differ in the marker, whatever the values light.
    one_orange = _entry("prompt-roll", [(0, 48, 0)] + [(0, 0, 0)] * (W - 2) + [(48, 16, 0)])
    two_orange = _entry("table-roll", [(0, 48, 0)] * 2 + [(0, 0, 0)] * (W - 3) + [(48, 16, 0)])
    assert legend_cvd.compare(one_orange, two_orange, legend_cvd.NORMAL)[0] is None


def test_the_simulation_keeps_greys_and_moves_red():
    grey = (20, 20, 20)
    for d in legend_cvd.DEFICIENCIES:
        assert legend_cvd.delta_e(grey, grey, d) == 0
        assert legend_cvd.simulate(legend_cvd.screen(grey), d) == pytest.approx(
            legend_cvd.screen(grey), abs=0.01
        )
    assert legend_cvd.delta_e((48, 0, 0), (0, 48, 0)) > 50
    assert legend_cvd.delta_e((48, 0, 0), (0, 48, 0), "deuteranopia") < 20


def test_the_normal_view_is_the_legends_own_screen_colour():
    for e in legend.entries():
        for rgb in e["leds"]:
            assert legend_cvd.css(tuple(rgb)) == legend_entry.css(rgb)


def test_a_games_ring_is_checked_in_its_own_colour():
    # The legend draws "the game's colour" in DTwww's; on d-TT's ring it is
    # d-TT's, next to the trump.
    dtt = GAMES.index("dtt")
    on_ring = [a for m, a, b in PAIRS if m == "the ring in d-TT" and a["key"] == "ring-colour"]
    assert on_ring and on_ring[0]["leds"] == legend_match.ring_colour(dtt)["leds"]
    assert on_ring[0]["leds"] != legend_match.ring_colour(0)["leds"]


def test_every_trump_of_dtt_on_the_ring_is_told_apart():
    # The legend's ring-dtt is one example (spades); the ring shows any of the
    # four suits or no trump, or d-TT's own colour before the cards are up.
    g = GAMES.index("dtt")
    shown = [legend_match.ring_colour(g)]
    for trump in range(5):
        view = games.ring_view(g, types.SimpleNamespace(faceup_n=4, trump=trump))
        draw = legend_match.ring_draw(view)
        shown.append(legend_entry.entry("trump %d" % trump, "ring", "", "", "", RING, draw))
    told_apart(shown)


def test_the_colours_a_white_die_can_count_as_are_told_apart():
    # The legend shows one declaration (blue); the seat steps through red,
    # blue and green, which red-green-blind eyes must tell apart too.
    shown = [
        legend_entry.entry("white as %d" % c, "asked", "", "", "", W, legend_match.white_die(c))
        for c in (dtwww_rules.RED, dtwww_rules.BLUE, dtwww_rules.GREEN)
    ]
    told_apart(shown)


def test_the_command_takes_no_arguments_and_says_so_in_one_line(capsys):
    assert legend_cvd.main(["--moment", "x"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "'--moment'" in err and "no arguments" in err
    assert legend_cvd.main(["--help"]) == 0
    assert "takes no arguments" in capsys.readouterr().out
