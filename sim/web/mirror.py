"""The web page as the mirror of a real board: what its USB serial console says.

`python -m sim.web --port PORT` serves a MirrorSession instead of a Session:
the page shows the board's LEDs, log and match as they happen, read from the
lines the firmware writes among its log (firmware/hal/mirror.py; their
format, and the reading of each, is sim/web/mirror_lines.py's).

A line that is none of the mirror's is a log line.  A keyframe comes every
KEYFRAME_MS (hal/mirror.py's, imported here so that the page says the
board's), so a mirror started in the middle of a match has it all once that keyframe's
@j lines are in.  Between keyframes the mirror follows the journal line by
line; a line out of step with what it has (a port opened in the middle, a
host that missed bytes) makes it wait for the next keyframe, keeping what it
shows.  The replica is built again only when the mirror has the whole
journal the board said it holds, and it changed.

The port is only read, never written: no Ctrl-C, no raw REPL, nothing that
could disturb play.  What the table shows beyond the LEDs (title, status,
trick, hands, scores, standings) is read from a replica: a fresh virtual table
whose flash gets the board's journal and which is then powered up, so that
the firmware resumes it as the board itself would after a power cut.  What
the board does not print is not shown: the value a seat is entering with
- and + (`entry` is null), the items a seat may put down, the bots.  The
replica and what the page shows of it are sim/web/mirror_view.py's.
"""

import json
import threading

import table_config

from dicetable.app.events import CENTRE
from dicetable.app.frames import led_count
from hal.mirror import KEYFRAME_MS
from sim.boardport import NoPort, clean, lost_text, open_port
from sim.web import view
from sim.web.mirror_lines import (
    LONGEST_LINE,
    MIRROR_LINES,
    RING_LEDS,
    SEAT_LEDS,
    Lines,
    cut,
    journal_words,
    keyframe,
    lost,
    match,
    segment,
)
from sim.web.mirror_view import empty_view, replica, replica_view
from sim.web.published import Published
from sim.web.requests import ActError

KEPT_LINES = 2000  # the log the page shows: the board's last lines
RETRY_S = 1.0  # a port gone or missing is opened again this often
POLL_S = 0.01  # the reader looks for new bytes this often (the page's lag at most)
CHUNK = 1 << 16  # bytes read at once, at most
FIRST_TRY_S = 3.0  # how long python -m sim.web waits to say "not connected"
WAITING = "waiting for the board's next keyframe (it sends one every %g s)" % (KEYFRAME_MS / 1000)
NO_MATCH = "no match on the table (menu or provisioning)"
RECEIVING = "receiving the board's match: %d of %d actions"


class ReadOnly:
    """The port with nothing but read and close: the mirror cannot write to it.
    The port is opened without a timeout (reads return what is there): a
    socket:// port's in_waiting says only whether there is a byte, so waiting
    for one and reading in_waiting would read a byte at a time."""

    def __init__(self, port):
        self._port = port

    def read(self):
        """The bytes there now (b"" if none)."""
        return self._port.read(CHUNK)

    def close(self):
        try:
            self._port.close()
        except Exception:  # noqa: BLE001 - a port gone away may fail to close
            pass


# --- the session ----------------------------------------------------------------------------


class MirrorSession(Published):
    """What sim/web/server.py serves for a board at `url` (a serial device, a
    pyserial URL, or 'auto'): snapshot(), wait_change(), act(), start(),
    close(), as Session has them.  A reader thread opens the port (again
    every `retry_s` while it is gone or missing), reads its lines and
    publishes the state; nothing is ever written to the port."""

    def __init__(self, url, retry_s=RETRY_S):
        self.url = url
        self.retry_s = retry_s
        super().__init__()
        self.connected = False
        self.why = "not opened yet"
        self.lines = 0  # every non-empty line read
        self.log = []
        self.leds = [(0, 0, 0)] * led_count(table_config)
        self.head = None  # the header and words (hex) of the keyframe followed; None: no match
        self.actions = []  # the actions of that match the mirror has
        self.told = 0  # the actions the mirror needs to show the match (the keyframe's M)
        self.following = False  # a keyframe was read, and every line since fit
        self.payload = None  # the whole journal shown (hex; "-": no match)
        self.vt = None  # the replica of the board's match
        self.shown = empty_view(WAITING)
        self.tried = threading.Event()  # the port was tried once
        self._stop = threading.Event()
        self._thread = None
        self._games = view.game_facts()
        self.publish()

    # --- the state ----------------------------------------------------------------

    def state(self):
        """The state JSON's object (without its version)."""
        out = dict(self.shown)
        out["seats"] = [dict(seat, leds=self._seat_leds(seat["seat"])) for seat in out["seats"]]
        out["ring"] = self._seat_leds(CENTRE)
        out["text"] = out["text"] + self.log[-1:]
        out["log"] = list(self.log)
        out.update(scrub=None, file=None, running=False, live=True, games=self._games)
        out["mirror"] = {
            "port": self.url,
            "connected": self.connected,
            "why": self.why,
            "lines": self.lines,
        }
        return out

    def _seat_leds(self, s):
        """Seat s's LEDs (CENTRE: the ring's) as the board last sent them; black
        for a seat past the board's last segment."""
        ring = len(self.leds) - RING_LEDS
        if s == CENTRE:
            return view.rgb_list(self.leds[ring:])
        first = s * SEAT_LEDS
        if first >= ring:
            return [[0, 0, 0]] * SEAT_LEDS
        return view.rgb_list(self.leds[first : first + SEAT_LEDS])

    def publish(self):
        """Build the state; a change bumps the version and wakes the listeners."""
        with self.lock:
            self.put(json.dumps(self.state(), separators=(",", ":")))

    def act(self, request):
        """Nothing is played from the mirror: ActError, one line."""
        raise ActError(
            "the page mirrors the board at %s: play happens at the table (read only)" % self.url
        )

    # --- the reader thread ----------------------------------------------------------

    def start(self):
        if self._thread is None:
            self._thread = threading.Thread(target=self._read, name="table-mirror", daemon=True)
            self._thread.start()
        return self

    def close(self):
        self._stop.set()
        super().close()

    def _read(self):
        while not self._stop.is_set():
            try:
                port = ReadOnly(open_port(self.url, timeout=0))
            except NoPort as e:  # no board on USB for 'auto', or the port did not open
                self._status(False, str(e))
                self._stop.wait(self.retry_s)
                continue
            self._status(True, None)
            try:
                why = self._follow(port)
            finally:
                port.close()
            if why is not None:
                self._status(False, why)
                self._stop.wait(self.retry_s)

    def _status(self, connected, why):
        with self.lock:
            self.connected = connected
            self.why = why
            self.publish()
        self.tried.set()

    def _follow(self, port):
        """Read until the session closes (None) or the port goes away (why)."""
        import serial

        lines = Lines()
        while not self._stop.is_set():
            try:
                chunk = port.read()
            except (serial.SerialException, OSError) as e:
                return "the board at %s went away (%s): was the cable pulled?" % (self.url, e)
            if chunk:
                self.take(*lines.feed(chunk))
            else:
                self._stop.wait(POLL_S)
        return None

    # --- what a line says -----------------------------------------------------------

    def take(self, raw_lines, dropped=False):
        """The lines read (bytes, without their ends), then the state published once."""
        if not raw_lines and not dropped:
            return  # a line not yet whole
        with self.lock:
            if dropped:
                self._log(
                    "mirror: a line of more than %d bytes without its end dropped" % LONGEST_LINE
                )
            for raw in raw_lines:
                text = clean(raw)
                if not text.strip():
                    continue
                self.lines += 1
                if text.startswith("@"):
                    self._at_line(text)
                else:
                    self._log(text)
            self.publish()

    def _log(self, line):
        self.log.append(line)
        del self.log[:-KEPT_LINES]

    def _at_line(self, text):
        word, _, payload = text.partition(" ")
        step = self._STEPS.get(word)
        if step is None:
            self._log(
                "mirror: %s line not understood: no such line (the board sends %s)"
                % (word[:20], ", ".join(MIRROR_LINES))
            )
            return
        try:
            step(self, payload)
        except ValueError as e:
            self._log("mirror: %s line not understood: %s" % (word, e))

    def _segment(self, payload):
        k, n, leds = segment(payload)
        if len(self.leds) != n * SEAT_LEDS:  # another table: what it has not sent is dark
            self.leds = [(0, 0, 0)] * (n * SEAT_LEDS)
        self.leds[k * SEAT_LEDS : (k + 1) * SEAT_LEDS] = leds

    def _keyframe(self, payload):
        parsed = keyframe(payload)
        self.following = True
        self.actions = []
        self.head, self.told = (None, 0) if parsed is None else (parsed[1], parsed[0])
        self._show()

    def _words(self, payload):
        first, actions = journal_words(payload)
        if self._in_step("@j", first, len(self.actions)):
            self.actions += actions
            self._show()

    def _cut(self, payload):
        kept = cut(payload)
        if self._in_step("@u", kept, len(self.actions) + 1):
            del self.actions[kept:]
            self.told = min(self.told, kept)  # the board's journal was that short
            self._show()

    def _lost(self, payload):
        self._log("mirror: " + lost_text(lost(payload)))

    _STEPS = {"@l": _segment, "@k": _keyframe, "@j": _words, "@u": _cut, "@lost": _lost}

    def _in_step(self, word, at, bound):
        """Whether a journal line fits what the mirror has (`at` must be below
        `bound`); one that does not makes it wait for the next keyframe."""
        if not self.following:
            return False  # waiting for a keyframe: the status says so
        if self.head is not None and (at < bound if word == "@u" else at == bound):
            return True
        self.following = False
        self._log(
            "mirror: %s line out of step (action %d; the mirror has %s): waiting for the"
            " board's next keyframe"
            % (word, at, "no match" if self.head is None else "%d" % len(self.actions))
        )
        return False

    def _show(self):
        """The replica built again once the mirror has the journal the
        keyframe said the board holds, and it changed (a keyframe's repeat
        changes nothing)."""
        if self.head is None:
            payload = "-"
        elif len(self.actions) >= self.told:
            payload = self.head + "".join("%06x" % a for a in self.actions)
        else:
            if self.vt is None:
                self.shown = empty_view(RECEIVING % (len(self.actions), self.told))
            return
        if payload == self.payload:
            return
        try:
            parsed = match(payload)
            vt = None if parsed is None else replica(*parsed)
        except ValueError as e:
            self.following = False
            self._log("mirror: the board's journal not understood: %s" % e)
            return
        self.payload = payload
        self.vt = vt
        self.shown = empty_view(NO_MATCH) if vt is None else replica_view(vt)
