"""The interactive simulator: a person's typing drives the firmware on the
virtual table, bots fill the other seats, the LEDs are drawn in colour."""

import io
import re

from sim import terminal

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def session(commands, game="walzer", players=3):
    out = io.StringIO()
    s = terminal.run(game, players, [0], ["heuristic"], 3, {}, io.StringIO(commands), out)
    return s, out.getvalue()


def test_the_seat_leds_are_drawn_in_colour_and_the_help_lists_the_commands():
    s, text = session("help\nquit\n")
    assert "\x1b[38;2;" in text  # 24-bit colour LEDs
    plain = ANSI.sub("", text)
    assert re.search(r"seat 0 you +[●·]{8}", plain)
    assert re.search(r"seat 1 heuristic +[●·]{8}", plain)
    assert "scan I" in plain and "undo" in plain


def test_typing_makes_the_actions_and_the_bots_fill_the_other_seats():
    s, text = session("?\n" + "auto\n" * 12 + "quit\n")
    m = s.table.match
    dealt = [a for a in m.journal if (a >> 20) == 1]
    assert len(dealt) == 36  # everyone's 12 cards, the bots' too
    assert "0  deal" in ANSI.sub("", text)
    passed = [a for a in m.journal if (a >> 20) == 4 and (a >> 16) & 7 != 0]
    assert len(passed) == 4  # the bots have passed their two cards


def test_a_tag_that_is_not_yours_is_refused_at_your_seat():
    s, text = session("scan 0\nscan 0\nquit\n")
    assert any("refused" in line for line in s.vt.lines)
