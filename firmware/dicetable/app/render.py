"""The table's frame and text display lines, drawn from the table's state.

draw() reads the Table (app/table.py) and writes nothing back but the shows
that have run their time (a trick's result, round scores, a table roll) and
the next time the frame changes by itself (Table._soon).  The legend a player
reads is docs/table.md ("What the LEDs say").
"""

from micropython import const

from dicetable.app import frames as fr
from dicetable.app import games
from dicetable.app.events import CENTRE, MAX_SEATS
from dicetable.match.actions import DEAL, PASS, ROLL

ERROR_MS = const(2000)  # an error pattern blinks this long
TRICK_MS = const(2000)  # a trick's winner and next leader show this long
SCORE_MS = const(8000)  # round scores show this long (or until a button)

_PERIOD = const(0x40000000)  # time.ticks_ms() wraps at 2**30 on MicroPython
_HALF = const(0x20000000)

# The table's modes, as Table.mode holds them.
MENU = "menu"
PROVISION = "provision"
PLAY_MODE = "play"
OVER = "over"


def ticks_diff(a, b):
    """a - b for ticks that wrap (as time.ticks_diff; the app takes no time module)."""
    return ((a - b + _HALF) & (_PERIOD - 1)) - _HALF


def draw(t, buf, lines):
    """Table t's frame into buf and, unless lines is None, the text display's lines."""
    lay = t.layout
    buf[:] = t._dark  # one copy in C, not a loop over every LED
    menu = t.menu
    if t.mode == MENU and menu is not None:
        menu.render(buf, lay)
        if lines is not None:
            lines.extend(menu.lines())
    elif t.mode == PROVISION and t.provision is not None:
        t.provision.render(buf, lay, lines)
    elif t.mode == PLAY_MODE or t.mode == OVER:
        _play(t, buf, lay, lines)
    _errors(t, buf, lay)
    if lines is not None and t.last_line:
        lines.append(t.last_line)


def _errors(t, buf, lay):
    # A loop, not any(): any() makes an iterator on the heap at every frame.
    for s in range(MAX_SEATS + 1):
        if t.err_code[s] or t.fault[s]:
            break
    else:
        return  # the usual frame: nothing to overlay
    for s in range(MAX_SEATS + 1):
        code = t.err_code[s]
        if s != CENTRE and s not in t.seats:
            continue
        first = lay.ring if s == CENTRE else lay.first(s)
        width = lay.ring_leds if s == CENTRE else lay.width
        if code:
            age = ticks_diff(t.now, t.err_since[s])
            if age >= ERROR_MS or age < 0:
                t.err_code[s] = 0
            else:
                half = age // fr.BLINK_MS
                fr.refusal(buf, first, width, code, half % 2 == 0)
                t._soon(t.err_since[s] + (half + 1) * fr.BLINK_MS)
                continue
        if t.fault[s]:
            fr.put(buf, first + width - 1, fr.ERROR)


def _play(t, buf, lay, lines):
    m = t.match
    ins = t.inputs
    if m is None or ins is None:
        return
    g = t.game
    if lines is not None:
        lines.append(
            "%s %s"
            % (
                games.title(g),
                "over" if m.over() else "%s %d" % (games.length_word(g)[:-1], len(m.history) + 1),
            )
        )
    trick = _trick_shown(t)
    if t.mode == OVER:
        _standings(t, buf, lay, lines, m)
        if trick is not None:  # the last trick's result shows first
            _trick(buf, lay, trick)
        return
    score = _score_shown(t, trick)
    for p in range(m.players):
        s = t.phys[p]
        first = lay.first(s)
        if score is not None:
            fr.place(buf, first, lay.width, score[0][p], m.players)
        elif trick is None or (s != trick[0] and s != trick[1]):
            _prompt(t, buf, first, lay.width, p, lines)
    if trick is not None:
        _trick(buf, lay, trick)
    rolled_at_centre = _roll(t, buf, lay, lines, score is None)
    if t.confirm:
        fr.fill(buf, lay.first(t.lead), lay.width, fr.PINK)
        if lines is not None:
            lines.append("abandon? OK")
    if not rolled_at_centre:  # the ring shows the centre die's roll otherwise
        _ring(t, buf, lay, lines, m, ins)


def _trick_shown(t):
    # The trick result still showing, or None (its time is up).
    trick = t.trick_show
    if trick is not None and ticks_diff(t.now, trick[2]) >= TRICK_MS:
        trick = t.trick_show = None
    if trick is not None:
        t._soon(trick[2] + TRICK_MS)
    return trick


def _score_shown(t, trick):
    # The round scores showing now, or None: they wait for a trick result
    # to end, and go after SCORE_MS.
    score = t.score_show
    if score is not None and ticks_diff(t.now, score[1]) >= SCORE_MS:
        score = t.score_show = None
    if score is None:
        return None
    if trick is not None or ticks_diff(t.now, score[1]) < 0:
        t._soon(score[1])
        return None
    t._soon(score[1] + SCORE_MS)
    return score


def _standings(t, buf, lay, lines, m):
    places = m.standings(t.places)
    for p in range(m.players):
        fr.place(buf, lay.first(t.phys[p]), lay.width, places[p], m.players)
        if lines is not None:
            lines.append("%d. seat %d: %d" % (places[p], t.phys[p], m.totals[p]))
    fr.fill(buf, lay.ring, lay.ring_leds, fr.PLACES[0])


def _roll(t, buf, lay, lines, shown):
    # The table's roll at the reader it was made from (unless the scores
    # show: `shown` False); True when that is the ring.
    roll = t.roll_show
    if roll is not None and ticks_diff(t.now, roll[2]) >= TRICK_MS:
        roll = t.roll_show = None
    if roll is None or not shown:
        return False
    t._soon(roll[2] + TRICK_MS)
    if roll[0] == CENTRE:
        fr.number(buf, lay.ring, lay.ring_leds, roll[1], fr.PROMPTS[ROLL])
    else:
        fr.number(buf, lay.first(roll[0]), lay.width, roll[1], fr.PROMPTS[ROLL])
    if lines is not None:
        lines.append("table rolled %d" % roll[1])
    return roll[0] == CENTRE


def _ring(t, buf, lay, lines, m, ins):
    centre = ins.centre_kind()
    if centre or ins.entry >= 0:
        # the centre waits: for a scan, or for a value entered at a seat
        now = t.now
        fr.chase(buf, lay.ring, lay.ring_leds, now, fr.PROMPTS[centre or ins.entry_kind()])
        t._soon(now + fr.CHASE_MS - now % fr.CHASE_MS)
        if lines is not None:
            lines.append(
                "centre: %s" % ("scan" if centre else "seat %d enters" % t.phys[ins.entry])
            )
        return
    g = t.game
    view = games.ring_view(g, m)
    if view is None:
        fr.fill(buf, lay.ring, lay.ring_leds, games.menu_colour(g), 3)
    elif view[0] is None:
        fr.fill(buf, lay.ring, lay.ring_leds, view[1], 2)
    else:
        fr.number(buf, lay.ring, lay.ring_leds, view[0], view[1])


def _trick(buf, lay, trick):
    # The trick's winner red, the next leader blue (one seat: half each).
    width = lay.width
    winner, leader = trick[0], trick[1]
    fr.fill(buf, lay.first(winner), width, fr.WINNER)
    if leader == winner:
        fr.fill(buf, lay.first(winner) + width // 2, width - width // 2, fr.LEADER)
    elif leader >= 0:
        fr.fill(buf, lay.first(leader), width, fr.LEADER)


def _prompt(t, buf, first, width, p, lines):
    # What seat p is asked for (legend: docs/table.md).
    ins = t.inputs
    e = t.entries[p]
    if e is not None:
        _entry(t, buf, first, width, p, e.current(), lines)
        return
    s = t.phys[p]
    k = ins.item_kind(p)
    can_pass = ins.pass_action(p) != 0
    if k == DEAL:
        have_need = games.deal_progress(t.game, t.match, p)
        have, need = have_need if have_need is not None else (0, 0)
        fr.progress(buf, first, width, have, need, fr.CYAN, fr.DIM_CYAN)
        if lines is not None:
            lines.append("s%d scan %d/%d" % (s, have, need))
    elif k:
        fr.fill(buf, first, width, fr.PROMPTS[k])
        if can_pass:
            fr.put(buf, first + width - 1, fr.PROMPTS[PASS])
        if lines is not None:
            lines.append("s%d %s%s" % (s, games.kind_word(k), " or pass" if can_pass else ""))
    elif can_pass:
        fr.fill(buf, first, width, fr.PROMPTS[PASS])
        if lines is not None:
            lines.append("s%d pass" % s)
    else:
        fr.fill(buf, first, width, fr.IDLE)


def _entry(t, buf, first, width, p, a, lines):
    # The value seat p is entering with -/+: action a, what OK would submit.
    g = t.game
    n, marker = games.entry_view(g, t.match, a)
    if n is None:
        fr.fill(buf, first, width, fr.OFF)
        fr.put(buf, first + width - 1, marker)
    else:
        fr.number(buf, first, width, n, marker)
    if lines is not None:
        lines.append("s%d %s" % (t.phys[p], games.action_words(g, a)))
