"""One table behind the web page: the firmware on virtual hardware, and what
the page may ask of it.

A Session owns one VirtualTable (sim/hw/rig.py: the board's own app and
drivers on virtual parts, in CPython) with a tag registered for every item
of every game, and a lock: every action, every bot move and every tick of the
clock holds it.  Everything reaches the table as a player's hands would:
button presses and tags put on a reader and taken away (a new match is chosen
in the menu with the buttons; undo is the long press of -).

Actions (act(request) with a dict from the page's JSON; ActError is bad
input, and nothing changed):

    new    {game, seats, bots, open_play, table_rolls, variant, length}
    step   one bot move (or a moment passes when no bot has anything to do)
    run    bots move every `period` seconds, waiting while a human is awaited,
           until pause or the end of the match
    pause
    press  {seat, button: minus|plus|ok, long}
    scan   {reader: seat or "centre", uid: hex}
    undo   the long press of - (at an awaited human seat, else the first seat
           of the match)
    bot    {seat, bot}: who plays a seat from now on
    open   {text, name}: a match file (sim/matchfile.py reads it)
    scrub  {to}: the opened match after its first `to` actions, booted from a
           journal on a fresh table's flash as the board resumes one

A background thread (start()/close()) moves the bots while running and, when
`live`, lets the table's time follow the wall clock (blinking, the trick's
2 s, the ring's chase).  Every change bumps `version` and wakes wait_change().

A request is checked by sim/web/requests.py before anything changes; the
table and its menu are sim/web/webtable.py's, an opened match file's checks
and boots sim/web/replay.py's.
"""

import json
import random
import threading
import time

from dicetable.app import games
from dicetable.app.events import CENTRE, LONG, MINUS, OK
from dicetable.games import GAMES, header_refusal
from dicetable.games.dicefull import data as dicefull_data
from dicetable.match.actions import TABLE, seat_of
from sim import gamehost, matchfile
from sim.hw import hands
from sim.hw.rig import STEP_MS
from sim.web import view
from sim.web.published import Published
from sim.web.replay import booted_at, check_file, table_drawn
from sim.web.requests import (
    BOTS,
    ActError,
    chosen_seats,
    field,
    option_values,
    pressed,
    scanned_uid,
    shown,
)
from sim.web.webtable import SEATS, choose_match, new_table

TICK_S = 0.05  # the background thread's beat
IDLE_MS = 500  # a step with nothing to do lets this much time pass
STILL_STEPS = 40  # run pauses after this many steps that changed nothing
KEPT_FRAMES = 256  # the strip's recorded frames are cut back to the last one


class Session(Published):
    """The table behind the page; see the module docstring."""

    def __init__(self, seed=1, live=True, period=0.15):
        super().__init__()
        self.seed = seed
        self.live = live
        self.period = period
        self.rng = random.Random(seed)
        self.vt = new_table(seed)
        self.vt.boot()
        self.vt.on_frame = self.publish
        self.bots = {s: "heuristic" for s in SEATS}
        self.running = False
        self.still = 0  # run's steps in a row that changed nothing
        self.file = None  # (name, MatchFile, drawn flags) of the opened match file
        self.at = 0  # the opened file's actions booted
        self.refused = {}  # reader -> {uid, code}: its last scan, refused
        self._seen = None
        self._carry = 0.0
        self._last_tick = time.monotonic()
        self._last_move = 0.0
        self.publish()

    # --- the state --------------------------------------------------------------------

    def extra(self):
        file = self.file
        scrub = None
        if file is not None:
            scrub = {"at": self.at, "of": len(file[1].actions), "last": self._last_words()}
        return {
            "scrub": scrub,
            "file": file[0] if file is not None else None,
            "running": self.running,
            "live": self.live,
            "games": view.game_facts(),
        }

    def _last_words(self):
        if self.file is None or self.at == 0:
            return None
        mf = self.file[1]
        a = mf.actions[self.at - 1]
        who = "table" if seat_of(a) == TABLE else "seat %d" % seat_of(a)
        return "%s %s" % (who, games.action_words(GAMES.index(mf.game), a))

    def publish(self):
        """Build the state; a change bumps the version and wakes the listeners."""
        with self.lock:
            body = json.dumps(
                view.state(self.vt, self.bots, self.extra(), self.refused), separators=(",", ":")
            )
            t = self.vt.table
            self._seen = (t.frame_version, len(self.vt.lines), self.running, t.mode)
            self.put(body)

    # --- the background thread --------------------------------------------------------

    def start(self):
        if self._thread is None:
            self._thread = threading.Thread(target=self._beat, name="table-clock", daemon=True)
            self._thread.start()
        return self

    def _beat(self):
        while not self.closed:
            # While running with no period the bots move back to back; the
            # short sleep lets the page's requests take the lock between moves.
            time.sleep(max(min(TICK_S, self.period), 0.001) if self.running else TICK_S)
            with self.lock:
                self.tick()

    def tick(self):
        """One beat: the wall clock's time passes at the table (live), a bot
        moves (running, once a period), and what changed is published."""
        now = time.monotonic()
        vt = self.vt
        if self.live:
            self._follow_clock(now)
        self._last_tick = now
        if self.running and now - self._last_move >= self.period:
            self._last_move = now
            self._run_step()
        if len(vt.strip.frames) > KEPT_FRAMES:
            del vt.strip.frames[:-1]
        t = vt.table
        if self._seen != (t.frame_version, len(vt.lines), self.running, t.mode):
            self.publish()

    def _follow_clock(self, now):
        # The table's time catches up with the wall clock's while the frame
        # will change by itself (a blink, the ring's chase, a result shown
        # for a while: the table set a time to draw again); when nothing is
        # due, passes of the main loop would change nothing and are skipped.
        vt = self.vt
        if vt.table._wake is None:
            self._carry = 0.0
            return
        self._carry = min(self._carry + (now - self._last_tick) * 1000, 1000)
        steps = int(self._carry) // STEP_MS
        if steps:
            vt.wait(STEP_MS * steps)
            self._carry -= STEP_MS * steps

    def _run_step(self):
        t = self.vt.table
        before = (len(t.match.journal) if t.match else -1, t.frame_version, len(self.vt.lines))
        moved = self.bot_step()
        if t.mode != "play":
            self.running = False
            return
        after = (len(t.match.journal) if t.match else -1, t.frame_version, len(self.vt.lines))
        # No move: a human seat is awaited, and run waits for it.  A move that
        # changed nothing, many times over, would be a bot stuck: pause.
        self.still = self.still + 1 if moved and after == before else 0
        if self.still >= STILL_STEPS:
            self.running = False
            self.vt.say("web: run paused (the bots made no progress)")

    # --- requests ---------------------------------------------------------------------

    def act(self, request):
        """Do what the page asks (a dict); ActError for bad input, and then
        nothing changed."""
        if not isinstance(request, dict):
            raise ActError('the body is a JSON object, e.g. {"do": "step"}')
        do = request.get("do")
        doers = {
            "new": self.new,
            "step": self.step,
            "run": self.run,
            "pause": self.pause,
            "press": self.press,
            "scan": self.scan,
            "undo": self.undo,
            "bot": self.set_bot,
            "open": self.open,
            "scrub": self.scrub,
        }
        if not isinstance(do, str) or do not in doers:
            raise ActError(
                "no action %s (the actions are %s)"
                % (shown(do) if do is not None else "given", ", ".join(doers))
            )
        with self.lock:
            doers[do](request)
            self._follow_file()
            self.publish()
            return self.version

    # --- new match ----------------------------------------------------------------------

    def new(self, request):
        game = field(request, "game", str)
        if game not in GAMES:
            raise ActError("no game %s (the games are %s)" % (shown(game), ", ".join(GAMES)))
        g = GAMES.index(game)
        seats = chosen_seats(field(request, "seats", list), SEATS)
        why = header_refusal(game, len(seats), 0)
        if why:
            raise ActError(why)
        values = option_values(request, g, len(seats))
        bots = field(request, "bots", list, ["heuristic"] * len(seats))
        if len(bots) != len(seats) or any(b not in BOTS for b in bots):
            raise ActError("'bots' is one of %s per seat, %d in all" % ("/".join(BOTS), len(seats)))
        self.running = False
        self.file = None
        self.refused = {}
        choose_match(self.vt, g, seats, values)
        for s, b in zip(seats, bots, strict=True):
            self.bots[s] = b

    # --- bots and time ---------------------------------------------------------------

    def step(self, request):
        if not self.bot_step():
            self.vt.wait(IDLE_MS)

    def run(self, request):
        self.running = self.vt.table.mode == "play"
        self.still = 0
        self._last_move = 0.0

    def pause(self, request):
        self.running = False

    def set_bot(self, request):
        s = self._seat(request, "seat")
        bot = field(request, "bot", str)
        if bot not in BOTS:
            raise ActError("no bot %s (bots are %s)" % (shown(bot), ", ".join(BOTS)))
        self.bots[s] = bot

    def bot_step(self):
        """One move of the bots, as the terminal's bots make it; False when
        there is nothing for them to do (a human seat is awaited, or no match)."""
        vt = self.vt
        t = vt.table
        if t.mode != "play":
            return False
        if t.trick_show is not None:
            vt.wait(IDLE_MS)  # the players look at the trick's result
            return True
        humans = [s for s in t.phys if self.bots.get(s) == "human"]
        if t.score_show is not None and not humans:
            vt.press(t.lead, OK)  # put the round's scores away
            return True
        a = self._bot_action(t)
        if a is None:
            return False
        hands.make(vt, t, a)
        return True

    def _bot_action(self, t):
        ins = t.inputs
        for p in range(len(t.phys)):
            s = t.phys[p]
            acts = ins.seats[p]
            if not acts or self.bots.get(s) == "human":
                continue
            if self.bots.get(s) == "heuristic" and ins.own[p]:
                host = gamehost.host_of(t.match)
                return host.heuristic(t.match, p, list(ins.own[p]), self.rng)
            return self.rng.choice(acts)
        centre = ins.centre
        return self.rng.choice(centre) if centre else None

    # --- a player's hands ----------------------------------------------------------------

    def _seat(self, request, key):
        s = field(request, key, int)
        if s not in self.vt.table.seats:
            raise ActError("no seat %d (the seats are %s)" % (s, ", ".join(str(x) for x in SEATS)))
        return s

    def press(self, request):
        s = self._seat(request, "seat")
        code = pressed(request)
        self.refused.pop(s, None)
        self.vt.press(s, code)

    def scan(self, request):
        reader = request.get("reader")
        if reader == "centre":
            reader = CENTRE
        else:
            reader = self._seat(request, "reader")
        uid = scanned_uid(request)
        self.refused.pop(reader, None)
        t = self.vt.table
        lines = len(self.vt.lines)
        self.vt.scan(reader, uid)
        # A refusal is a line logged and the reader's error pattern set: the
        # page shows its words on the item tried, while the pattern shows.
        refused = any(" refused: " in line for line in self.vt.lines[lines:])
        if refused and t.err_code[reader]:
            self.refused[reader] = {"uid": uid.hex(), "code": t.err_code[reader]}

    def undo(self, request):
        t = self.vt.table
        if t.match is None or t.mode not in ("play", "over"):
            raise ActError("no match to undo in (the table shows the %s)" % t.mode)
        self.running = False
        seat = self._undo_seat(t)
        before = len(t.match.journal)
        lines = len(self.vt.lines)
        # The first press may only put the round's scores away or cancel an
        # abandon: press again until the table takes it back or refuses.
        for _ in range(3):
            self.vt.press(seat, MINUS | LONG)
            m = t.match
            if m is None or len(m.journal) != before:
                return
            if any("refused" in line for line in self.vt.lines[lines:]):
                return

    def _undo_seat(self, t):
        for p in range(len(t.phys)):
            s = t.phys[p]
            if self.bots.get(s) == "human" and t.inputs is not None and t.inputs.active(p):
                return s
        return t.phys[0] if t.phys else t.lead

    # --- a match file ----------------------------------------------------------------------

    def open(self, request):
        text = field(request, "text", str)
        name = field(request, "name", str, "match file") or "match file"
        try:
            mf = matchfile.parse(text.encode("utf-8"), name)
        except matchfile.MatchFileError as e:
            raise ActError(str(e)) from None
        self.open_match(mf, name)

    def open_match(self, mf, name):
        """Show match file `mf` (a MatchFile) at its start; ActError when the
        rules refuse one of its actions."""
        why = matchfile.set_refusal(name, mf.game, mf.challenges, dicefull_data.SET_WORD)
        if why:  # the table plays the set on hand (--challenges, else the built-in)
            raise ActError(why)
        check_file(mf, name)
        with self.lock:
            self.running = False
            self.file = (name, mf, table_drawn(mf.game, mf.players, mf.options, mf.actions))
            for s in SEATS:
                self.bots[s] = "human"
            self._boot_at(0)
            self.publish()

    def scrub(self, request):
        if self.file is None:
            raise ActError("no match file open (open one first)")
        n = field(request, "to", int)
        of = len(self.file[1].actions)
        if not 0 <= n <= of:
            raise ActError("to %d is out of range (0 to %d, the file's actions)" % (n, of))
        self.running = False
        self._boot_at(n)

    def _boot_at(self, n):
        """The table booted at the opened file's n-th action (replay.booted_at)."""
        file = self.file
        if file is None:
            raise ActError("no match file open (open one first)")
        vt, n = booted_at(file[1], file[2], n, self.seed)
        vt.on_frame = self.publish
        self.vt = vt
        self.refused = {}
        self.at = n

    def _follow_file(self):
        """After an action: the opened file's place, while the table's journal
        is still the file's; a journal of its own leaves the file."""
        if self.file is None:
            return
        m = self.vt.table.match
        actions = self.file[1].actions
        journal = list(m.journal) if m is not None else None
        if journal is None or journal != actions[: len(journal)]:
            self.file = None
            return
        self.at = len(journal)
