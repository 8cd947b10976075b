"""The interactive simulator: a person's typing drives the firmware on the
virtual table, bots fill the other seats, the LEDs are drawn in colour.

After every step the view shows what a player at the table would see and
know: each segment's LEDs as the strip is lit now (dim and bright apart), what
each pattern means, the trick on the table and who took the last one, the
person's hand, the scores and the standings, and the new log lines; `log`
reads every line.  A typed line that is not understood gets one line."""

import io
import re
import sys

import pytest

from dicetable.app import frames as fr
from dicetable.app import games
from dicetable.app.menu import F_LENGTH
from dicetable.match.actions import KEEP, PASS, PASS_ITEM, PICK, PLAY
from sim import terminal, terminal_view

ANSI = re.compile(r"\x1b\[[0-9;]*m")
ONE_ROUND = {F_LENGTH: 1}


def session(commands, game="walzer", players=3, humans=(0,), options=None):
    out = io.StringIO()
    s = terminal.run(
        game, players, list(humans), ["heuristic"], 3, options or {}, io.StringIO(commands), out
    )
    return s, out.getvalue()


def views(text):
    """The plain text after each prompt (the first: before the first prompt)."""
    return ANSI.sub("", text).split("seat 0> ")


def seat_line(view, label):
    """The line of a view that draws `label`'s LEDs ('seat 1', 'centre')."""
    return next(line for line in view.splitlines() if line.startswith(label + " "))


def cells(line):
    return re.search(r"[●○·]{8,}", line).group(0)


def name(key):
    return terminal_view.pattern_name(key)


# --- the LEDs --------------------------------------------------------------------------


def test_the_seat_leds_are_drawn_in_colour_and_the_help_lists_the_commands():
    s, text = session("help\nquit\n")
    assert "\x1b[38;2;" in text  # 24-bit colour LEDs
    plain = ANSI.sub("", text)
    assert re.search(r"seat 0 you +[●○·]{8}  ", plain)
    assert re.search(r"seat 1 heuristic +[●○·]{8}  ", plain)
    assert re.search(r"centre +[●○·]{16}  ", plain)
    assert "scan I" in plain and "undo" in plain and "log N" in plain


def _dimmed(c, shift):
    return tuple(v >> shift for v in c)


@pytest.mark.parametrize(
    "rgb, glyph",
    [
        (fr.OFF, "·"),
        (fr.IDLE, "○"),  # a seat nothing is asked of
        (fr.DIM_CYAN, "○"),  # the rest of a deal's bar
        (_dimmed(fr.ORANGE, 3), "○"),  # frames.fill(..., shift=3): the ring's dimmed colour
        (fr.GREY, "○"),
        (fr.CYAN, "●"),
        (fr.WHITE, "●"),
        (fr.PLACES[3], "●"),
        (_dimmed(fr.BLUE, 1), "●"),
    ],
    ids=["off", "idle", "dim-cyan", "dimmed-ring", "grey", "cyan", "white", "red-place", "half"],
)
def test_a_dim_led_is_a_hollow_dot_and_a_bright_one_a_solid_dot(rgb, glyph):
    assert ANSI.sub("", terminal_view.led_cell(rgb)) == glyph


def _shade(cell):
    r, g, b = map(int, re.match(r"\x1b\[38;2;(\d+);(\d+);(\d+)m", cell).groups())
    return max(r, g, b)


@pytest.mark.parametrize(
    "dim, bright",
    [(fr.DIM_CYAN, fr.CYAN), (fr.IDLE, fr.WHITE), (_dimmed(fr.ORANGE, 3), fr.ORANGE)],
    ids=["cyan", "white", "orange"],
)
def test_a_dim_led_is_drawn_darker_than_a_bright_one_of_its_colour(dim, bright):
    assert _shade(terminal_view.led_cell(dim)) + 100 < _shade(terminal_view.led_cell(bright))
    assert _shade(terminal_view.led_cell(dim)) >= 60  # still seen on a dark terminal


def test_the_view_draws_the_frame_the_strip_has_now():
    s, _ = session("auto\nscan 0\nquit\n")
    drawn = []
    s.out = io.StringIO()
    s.draw()
    t = s.table
    for seat in t.seats:
        drawn.append(s.vt.leds(seat))
        assert s.vt.leds(seat) == t.leds(seat)  # within the power budget: as the table drew it
    assert s.vt.pixels.last_scale == 256
    row = cells(seat_line(views(s.out.getvalue())[0], "seat 0"))
    assert row in ("●" * 7 + "·", "·" * 8)  # refusal 7 blinking: lit or dark, as the strip is


# --- the legend beside each segment ------------------------------------------------------------


REFUSED = "refused: %s (code 7, blinking)" % name("refusal-7")
LEGEND = [
    # (commands, the view after the last of them, label, its legend)
    ("start-deal", "", "seat 0", name("prompt-deal") + " (0 of 12)"),
    ("start-idle", "", "seat 1", name("idle")),
    ("start-ring", "", "centre", name("ring-colour") + " (Walzer)"),
    ("scanned", "auto\n", "seat 0", name("prompt-deal") + " (1 of 12)"),
    ("refused", "auto\nscan 0\n", "seat 0", REFUSED),
    ("refusal-gone", "auto\nscan 0\nauto\n", "seat 0", name("prompt-deal") + " (2 of 12)"),
    ("refusal-gone-empty-line", "auto\nscan 0\n\n", "seat 0", name("prompt-deal") + " (1 of 12)"),
    ("pass-item", "auto\n" * 12, "seat 0", name("prompt-pass-item")),
]


@pytest.mark.parametrize("typed, label, words", [c[1:] for c in LEGEND], ids=[c[0] for c in LEGEND])
def test_each_segment_says_what_its_pattern_means(typed, label, words):
    _, text = session(typed + "quit\n")
    line = seat_line(views(text)[-2], label)
    assert line.endswith("  " + words)


def test_a_refusal_pattern_does_not_linger_once_the_next_line_acts():
    s, text = session("auto\nscan 0\nauto\nquit\n")
    refused, after = views(text)[-3], views(text)[-2]
    assert "refused" in seat_line(refused, "seat 0")
    assert cells(seat_line(refused, "seat 0")) in ("●" * 7 + "·", "·" * 8)
    assert "refused" not in after
    assert s.table.err_code[0] == 0
    assert s.vt.leds(0)[0] == fr.CYAN  # the deal's bar again, on the strip


def test_a_refusal_at_a_bot_seat_or_the_ring_is_named_by_its_code():
    s, _ = session("quit\n")
    t = s.table
    t.err_code[1], t.err_since[1] = 1, t.now
    assert terminal_view.legend(
        terminal_view.seat_pattern(t, 1)
    ) == "refused: %s (code 1, blinking)" % (name("refusal-1"))
    t.err_code[terminal_view.CENTRE], t.err_since[terminal_view.CENTRE] = 17, t.now
    assert terminal_view.ring_pattern(t) == ("refusal-17", "code 17, blinking")
    t.now += terminal_view.ERROR_MS
    assert terminal_view.seat_pattern(t, 1) == ("idle", "")  # its two seconds are over


def test_the_names_are_the_led_legends_and_a_faulty_reader_says_so():
    assert terminal_view.pattern_name("prompt-play") == "your turn to play"
    assert terminal_view.pattern_name("refusal-1") == "1 red: out of turn"
    assert terminal_view.pattern_name("refusal-17") == "1 purple: unknown tag"
    assert (
        terminal_view.legend(("idle", ""), fault=True)
        == "waiting; reader not answering (last LED red)"
    )


def test_every_pattern_the_view_names_has_a_name():
    keys = {"idle", "dark", "prompt-play", "prompt-pick-or-pass", "trick-winner-leads", "place-4"}
    keys |= {"ring-colour", "ring-dtt", "ring-nokosu", "match-over"} | set(terminal_view.NAMES)
    keys |= {"refusal-%d" % c for c in list(range(1, 11)) + [17, 21]}
    for key in keys:
        assert terminal_view.pattern_name(key) not in ("", key)


# --- the match: tricks, hands, scores ------------------------------------------------------------


@pytest.fixture(scope="module")
def one_round():
    """A one-round Walzer match, the person's seat played with auto."""
    return session("auto\n" * 60 + "quit\n", options=ONE_ROUND)


def test_the_trick_on_the_table_and_the_trick_taken_are_named(one_round):
    s, text = one_round
    plain = ANSI.sub("", text)
    on_table = re.findall(r"^  trick on the table: (.*)$", plain, re.MULTILINE)
    taken = re.findall(
        r"^  trick taken: (.*): seat (\d) wins(, seat (\d) leads next)?$", plain, re.M
    )
    assert on_table and all(
        re.fullmatch(r"(seat \d [\w ]+)(, seat \d [\w ]+)*", t) for t in on_table
    )
    assert len(taken) == 12  # every trick of the round, each seen once
    assert all(w == lead for _, w, _, lead in taken[:-1])  # Walzer: the winner leads next
    assert taken[-1][2] == ""  # the round's last trick: nobody leads
    m = s.table.match
    last = ", ".join(
        "seat %d %s" % (m.last_trick_seats[i], games.item_name(s.game, m.last_trick_items[i], True))
        for i in range(3)
    )
    assert taken[-1][:2] == (last, str(m.last_winner))


def test_a_trick_taken_shows_on_the_leds_while_only_the_person_is_asked(one_round):
    _, text = one_round
    for view in views(text):
        if "trick taken" in view and "  " + name("trick-winner-leads") in view:
            assert cells(seat_line(view, "seat 0")) == "●" * 8  # green, then blue
            return
    pytest.fail("the person never took a trick and led the next (seed 3 does)")


def test_the_persons_hand_and_the_bots_hand_sizes_are_shown():
    s, text = session("auto\n" * 11 + "quit\n")
    view = views(text)[-2]
    hand = re.search(r"^  your hand \(seat 0\): (.*)$", view, re.M).group(1).split(", ")
    assert hand == [games.item_name(s.game, c, True) for c in s.table.match.hand(0)]
    assert len(hand) == 11  # one still to scan
    assert "  the bots hold: seat 1 12 items, seat 2 12 items\n" in view
    s, text = session("auto\n" * 12 + "quit\n")  # the deal is complete: the bots pass 2 each
    assert "  the bots hold: seat 1 10 items, seat 2 10 items\n" in views(text)[-2]


def test_the_scores_and_the_standings_show_at_the_end(one_round):
    s, text = one_round
    m = s.table.match
    assert m.over() and s.table.mode == "over"
    last = views(text)[-1]
    row = ", ".join("seat %d %+d" % (p, m.history[0][p]) for p in range(3))
    totals = ", ".join("seat %d %d" % (p, m.totals[p]) for p in range(3))
    assert "  round 1 scored: %s; totals: %s\n" % (row, totals) in last
    places = m.standings()
    best = min(range(3), key=lambda p: places[p])
    assert "  final standings: 1. seat %d (%d)" % (best, m.totals[best]) in last
    for p in range(3):  # each seat's final place, or the last trick's result before it
        line = seat_line(last, "seat %d" % p)
        place = name("place-%d" % places[p]) + " (final: %s, total %d)" % (
            terminal_view.ordinal(places[p]),
            m.totals[p],
        )
        assert line.endswith(place) or " won the trick" in line or " leads next" in line
    assert last.endswith("the match is over\n")


@pytest.mark.slow
def test_the_scores_of_a_round_stay_in_view_for_the_next():
    s, text = session("auto\n" * 30 + "quit\n", options={F_LENGTH: 2})
    assert len(s.table.match.history) >= 1 and not s.table.match.over()
    assert re.search(r"^  round 1 scored: seat 0 [-+]\d+", views(text)[-2], re.M)


# --- the legend agrees with the LEDs, for every game --------------------------------------------


def _expect(key, leds):
    """True when the LEDs of a segment are those of the pattern `key` names."""
    if key.startswith("refusal-"):
        code = int(key[8:])
        colour = fr.TAG_ERROR if code >= fr.APP_CODES else fr.ERROR
        count = code % fr.APP_CODES
        lit = [colour] * count + [fr.OFF] * (len(leds) - count)
        return leds in (lit, [fr.OFF] * len(leds)) if count <= len(leds) else True
    whole = {
        "idle": fr.IDLE,
        "trick-winner": fr.WINNER,
        "trick-leader": fr.LEADER,
        "confirm-abandon": fr.PINK,
        "match-over": fr.PLACES[0],
        "prompt-pass": fr.PROMPTS[PASS],
        "prompt-pass-item": fr.PROMPTS[PASS_ITEM],
        "prompt-keep": fr.PROMPTS[KEEP],
        "prompt-pick": fr.PROMPTS[PICK],
    }
    if key in whole:
        return leds == [whole[key]] * len(leds)
    if key == "prompt-play":
        return leds[:-1] == [fr.PROMPTS[PLAY]] * (len(leds) - 1)  # (last LED pink: or pass)
    if key == "prompt-pick-or-pass":
        return leds == [fr.PROMPTS[PICK]] * (len(leds) - 1) + [fr.PROMPTS[PASS]]
    if key == "ring-colour":
        return len(set(leds)) == 1 and max(leds[0]) < terminal_view.DIM_BELOW  # dimmed
    if key == "prompt-deal":
        return set(leds) <= {fr.CYAN, fr.DIM_CYAN}
    if key == "trick-winner-leads":
        return leds == [fr.WINNER] * 4 + [fr.LEADER] * 4
    if key.startswith("place-"):
        return leds[0] == fr.PLACES[int(key[6:]) - 1]
    return True  # a value, a number on the ring: its digits are frames.number's


@pytest.mark.slow
@pytest.mark.parametrize("game", ["walzer", "dtwww", "dicefull", "dtt", "nokosu"])
def test_the_legend_names_the_pattern_the_strip_shows(monkeypatch, game):
    seen = []
    draw = terminal.Session.draw

    def checked(self):
        t = self.table
        for s in t.seats:
            seen.append((terminal_view.seat_pattern(t, s)[0], self.vt.leds(s)))
        seen.append((terminal_view.ring_pattern(t)[0], self.vt.leds(terminal_view.CENTRE)))
        draw(self)

    monkeypatch.setattr(terminal.Session, "draw", checked)
    s, _ = session("auto\nscan 3\n" * 80 + "quit\n", game=game, options=ONE_ROUND)
    assert s.table.mode == "over"
    wrong = [(key, leds) for key, leds in seen if not _expect(key, leds)]
    assert not wrong
    keys = {key for key, _ in seen}
    assert "idle" in keys and "match-over" in keys


# --- the log --------------------------------------------------------------------------------


def test_a_step_shows_its_new_log_lines_and_says_how_many_more_there_are():
    s, text = session("auto\nquit\n")
    first, second = views(text)[0], views(text)[1]
    more = re.search(
        r"  log: (\d+) more new lines before these \(log (\d+) shows them all\)", first
    )
    shown = re.findall(r"^  log: (?!\d+ more)(.*)$", first, re.M)
    assert len(shown) == terminal.LOG_SHOWN
    assert int(more.group(2)) == int(more.group(1)) + terminal.LOG_SHOWN
    assert re.findall(r"^  log: (.*)$", second, re.M) == s.vt.lines[-1:]  # the person's scan
    assert shown == s.vt.lines[int(more.group(2)) - terminal.LOG_SHOWN : int(more.group(2))]


# Each of these cases starts a terminal session (about 0.6 s): make check runs the first
# case of each table, make test all of them.
FIRST_ONLY = pytest.mark.slow


def cases(table):
    """pytest params of (id, values...) rows, all but the first marked slow."""
    return [
        pytest.param(*row[1:], id=row[0], marks=() if i == 0 else FIRST_ONLY)
        for i, row in enumerate(table)
    ]


@pytest.mark.parametrize(
    "typed, count",
    [
        pytest.param("log", None, id="all"),
        pytest.param("log 1", 1, id="one", marks=FIRST_ONLY),
        pytest.param("log 5", 5, id="five", marks=FIRST_ONLY),
        pytest.param("log 999999", None, id="more-than-there-are", marks=FIRST_ONLY),
    ],
)
def test_log_reads_every_line_or_the_last_n(typed, count):
    s, text = session("auto\n%s\nquit\n" % typed)
    after = views(text)[2]
    lines = s.vt.lines
    want = lines if count is None else lines[-count:]
    first = len(lines) - len(want) + 1
    assert after == "".join("  %4d  %s\n" % (first + i, line) for i, line in enumerate(want))


def test_a_long_log_goes_through_the_pager_on_a_terminal(monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    paged = []
    monkeypatch.setattr(terminal.pydoc, "pager", paged.append)
    out = Terminal()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(terminal, "PAGE", 20)
    commands = io.StringIO("log\nlog 3\nquit\n")
    s = terminal.run("walzer", 3, [0], ["heuristic"], 3, {}, commands, out)
    lines = s.vt.lines
    assert len(lines) > terminal.PAGE
    assert paged == ["".join("  %4d  %s\n" % (i + 1, line) for i, line in enumerate(lines))]
    last = "".join("  %4d  %s\n" % (len(lines) - 2 + i, line) for i, line in enumerate(lines[-3:]))
    assert "seat 0> " + last + "seat 0> " in out.getvalue()  # short: written as it is


# --- typed lines that change nothing ---------------------------------------------------------


QUIET = [
    ("actions", "?"),
    ("items", "items"),
    ("help", "help"),
    ("log", "log 2"),
    ("unknown", "xyz"),
    ("bad-log", "log x"),
]


@pytest.mark.parametrize("typed", cases(QUIET))
def test_a_line_that_changes_nothing_does_not_redraw_the_table(typed):
    _, text = session("%s\nquit\n" % typed)
    assert "seat 1 heuristic" not in views(text)[1]


HINTS = [
    ("unknown", "xyz", "no command 'xyz' (type help for the commands, ? for your actions)"),
    ("one-letter", "h", "no command 'h' (type help for the commands, ? for your actions)"),
    (
        "near-a-command",
        "logs",
        "no command 'logs' (type help for the commands, ? for your actions)",
    ),
    (
        "log-word",
        "log x",
        "log takes a number of lines (1 or more), not 'x' (log alone: every line)",
    ),
    (
        "log-zero",
        "log 0",
        "log takes a number of lines (1 or more), not '0' (log alone: every line)",
    ),
    ("log-two", "log 1 2", "log takes a number of lines (1 or more), not '1 2'"),
]


@pytest.mark.parametrize("typed, hint", cases(HINTS))
def test_unknown_input_gets_one_line_not_the_whole_help(typed, hint):
    quiet, _ = session("quit\n")
    s, text = session("%s\nquit\n" % typed)
    assert s.table.match.journal == quiet.table.match.journal
    after = views(text)[1]
    assert after.startswith("  " + hint) and after.count("\n") == 1


def auto_until(reached, never, game, players, most=60):
    """The session of the fewest `auto` lines (4 at least) after which the
    match has reached(match); the test fails with `never` if none does."""
    for turns in range(4, most):
        s, text = session("auto\n" * turns + "quit\n", game=game, players=players)
        if s.table.match is not None and reached(s.table.match):
            return s, text
    pytest.fail(never)


def test_in_a_game_that_hides_no_hand_the_bots_items_are_shown():
    # Dicefull's picked dice lie in view at the table (its GameHost: no hidden
    # hands), so the terminal names them as it names the person's.
    s, text = auto_until(lambda m: m.held[1], "the bot never picked a die", "dicefull", 2)
    m = s.table.match
    picked = " + ".join(games.item_name(s.game, v, True) for v in m.hands[1][: m.held[1]])
    assert "  the bots hold: seat 1 %s\n" % picked in views(text)[-2]


def test_in_a_dtt_draft_the_persons_packet_is_shown_under_the_hand():
    # d-TT's drafts: the person picks from a packet besides the hand (its
    # GameHost's packet part); a player must see the cards to pick from.
    s, text = auto_until(lambda m: m.packet_n[0], "the person never had a packet", "dtt", 3)
    m = s.table.match
    packet = [games.item_name(s.game, c, True) for c in m.packets[0][: m.packet_n[0]]]
    view = views(text)[-2]
    assert re.search(r"^  your packet: (.*)$", view, re.M).group(1).split(", ") == packet
    assert view.index("  your hand (seat 0)") < view.index("  your packet")
