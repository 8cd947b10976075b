"""The table on the board's own main loop (sim/vboard/table_app.py) with a
host at its USB console (sim/hw/vconsole.py: the rp2's CDC transmit path)
that reads, stops reading, reads slowly, or stops and resumes: the table
plays exactly as with no host at all (every pass, frame, log line, journal
action and watchdog beat at the same virtual time), no console write ever
waits, and once the host reads again the page's mirror (sim/web/mirror.py)
has the whole table the board has, and the monitor's log says what was lost."""

import json

import pytest
from test_web_mirror import mirror_facts, strip_rgb, table_facts

from dicetable.app.registry import pack
from dicetable.games import GAMES
from hal.console import Console
from hal.mirror import KEYFRAME_MS
from host_tools.monitor import LOST, format_line
from sim.hw import hands
from sim.hw.vconsole import Host, VConsole
from sim.vboard.table_app import TableApp
from sim.web.mirror import MirrorSession
from sim.web.mirror_lines import Lines

SEED = 8
DICEFULL = GAMES.index("dicefull")
MOVES = 30
STOP, RESUME = 3, 20  # the moves before which the host stops, and resumes, reading
REGISTRY = bytes(pack(hands.full_registry()))
# Whole virtual-board runs of seconds each: make test runs them, make check's
# edit loop does not (test_console_stall.py keeps the console's own cases there).
pytestmark = pytest.mark.slow


class Beats:
    """The watchdog as the main loop sees it: every beat, with its time."""

    def __init__(self, clock):
        self.clock = clock
        self.beats = []

    def beat(self, task):
        self.beats.append((self.clock.now_us, task))


class Run:
    """The table playing MOVES moves with `host` at its console, `script(i,
    host)` before move i; then the time a keyframe and its catching up take."""

    def __init__(self, host, script=None):
        self.vc = VConsole(host=host)
        self.console = Console(self.vc)
        self.log = []
        app = self.app = TableApp(self.console, self.say, SEED)
        self.vc.clock = app.clock
        app.provision(REGISTRY)
        app.power_up()
        loop = app.passes.loop
        self.frames = []
        show = loop.pixels.show

        def shown(frame):
            self.frames.append((app.clock.now_us, bytes(frame)))
            show(frame)

        loop.pixels.show = shown
        loop.dog = self.dog = Beats(app.clock)
        app.choose(DICEFULL, [0, 1, 2])
        for i in range(MOVES):
            if script is not None:
                script(i, self.vc.host)
            app.move()
        app.run_for(KEYFRAME_MS + 1000)

    def say(self, line):
        self.log.append(line.text())
        self.console.log(line)

    def what_the_table_did(self):
        passes = self.app.passes
        return {
            "log": self.log,
            "frames": self.frames,
            "beats": self.dog.beats,
            "journal": list(self.app.table.match.journal),
            "runs": list(passes.runs),
            "busy_us": list(passes.busy_us),
            "clock": self.app.clock.now_us,
        }


def stops(i, host):
    if i == STOP:
        host.stop()


def stops_and_resumes(i, host):
    stops(i, host)
    if i == RESUME:
        host.resume()


HOSTS = {
    "reading": (Host, None),
    "stopped": (Host, stops),
    "slow": (lambda: Host(every_us=30_000), None),  # a packet every 30 ms
    "resumed": (Host, stops_and_resumes),
}


@pytest.fixture(scope="module")
def no_host():
    """The same table with nothing at its USB port (DTR low)."""
    run = Run(Host(connected=False))
    assert run.vc.waited_us == 0 and run.console.lost == 0
    return run.what_the_table_did()


@pytest.mark.parametrize("name", list(HOSTS))
def test_the_table_plays_as_with_no_host_and_nothing_waits(no_host, name):
    make, script = HOSTS[name]
    run = Run(make(), script)
    assert run.vc.waited_us == 0  # the virtual clock never moved inside a write
    assert run.what_the_table_did() == no_host
    beats = no_host["beats"]
    for task in range(3):  # every task beat the watchdog all along
        times = [t for t, k in beats if k == task]
        assert max(b - a for a, b in zip(times, times[1:], strict=False)) < 200_000
    if name in ("stopped", "resumed", "slow"):
        assert run.console.lost > 0


def shown(vc):
    """The page's mirror fed every byte the host read: its state."""
    session = MirrorSession("socket://board")
    session.take(*Lines().feed(vc.read()))
    return json.loads(session.snapshot()[1])


@pytest.mark.parametrize("name", ["resumed", "slow"])
def test_once_the_host_reads_again_the_mirror_has_the_whole_table(name):
    make, script = HOSTS[name]
    run = Run(make(), script)
    if name == "slow":  # it reads at full speed for a keyframe's time
        run.vc.host.resume()
        run.app.run_for(KEYFRAME_MS + 1000)
    s = shown(run.vc)
    leds = [led for seat in s["seats"] for led in seat["leds"]] + s["ring"]
    assert leds == strip_rgb(run.app)
    assert mirror_facts(s) == table_facts(run.app.table)
    assert s["journal_length"] == len(run.app.table.match.journal) > STOP
    said = [x for x in s["log"] if x.startswith("mirror: ")]
    assert said and all("the board dropped" in x for x in said)


def test_the_monitor_says_what_was_lost_and_follows_the_log_again():
    run = Run(Host(), stops_and_resumes)
    shown = [format_line(x, 0) for x in run.vc.lines()]
    # "HH:MM:SS.mmm  MARK     text": the mark, and the text
    shown = [(x[14:21].strip(), x[23:]) for x in shown if x is not None]
    lost = [text for mark, text in shown if mark == LOST]
    assert sum(int(x.split()[3]) for x in lost) == run.console.lost > 0
    lines = [text for _, text in shown]
    # After the loss line, every line the table logged, in order.
    after = lines[lines.index(lost[-1]) + 1 :]
    assert after and after == run.log[len(run.log) - len(after) :]
