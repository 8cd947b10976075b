"""A USB host that holds the board's port open and stops reading, on the
model (tools/bench/console_stall.py): the table of the board's measurement,
a resumed 759-action Nokosu match, on its own main loop in virtual time.
Written straight into the port, as 74a722b's print() and stdout were, the
lines wait for room up to 500 ms a write, and the readers go unlooked-at for
seconds (the board: 18.9 s, tools/bench/bench_mirror.py prints the model
beside it); through hal/console.py, which asks first, they are looked at
every period, as with no host."""

import tempfile

import bench_mirror
import console_stall
import measured
import pytest

from hal.mirror import KEYFRAME_MS
from hal.readers import PERIOD_MS
from sim.hw import vconsole
from sim.hw.vconsole import Host

LAST_PHASE = console_stall.PHASES_MS[-1]  # the host stops just before a keyframe


class Straight:
    """The console as 74a722b wrote to it: every line straight into the port
    (print(), sys.stdout.buffer.write), never asking for room."""

    def __init__(self, vc):
        self.write = vc.write

    def log(self, line):
        self.write(bytes(line.buf[: line.n]) + b"\n")

    def room(self):
        return True


def straight(vc):
    console = Straight(vc)
    return console, console.log


@pytest.fixture(scope="module")
def journal():
    return console_stall.nokosu()


def test_lines_written_straight_in_leave_the_readers_for_seconds(journal):
    # Today's mirror writes up to 3 packets a frames pass: once the FIFO is
    # full each waits 500 ms, and the readers pass waits behind them.
    gap = console_stall.longest_gap_us(vconsole, journal, LAST_PHASE, Host(), straight)
    assert gap > 1_000_000


def test_through_the_console_the_readers_are_looked_at_every_period(journal):
    gap = console_stall.longest_gap_us(vconsole, journal, LAST_PHASE, Host())
    assert gap <= PERIOD_MS * 1000


@pytest.mark.slow
def test_the_model_of_74a722b_meets_the_board():
    # 74a722b's own tree, as make bench runs it: the first keyframe after the
    # stop holds the frames pass past the window's end, whatever the phase;
    # the longest gap within 15 % of the board's, the port closed a period.
    with tempfile.TemporaryDirectory() as folder:
        got = bench_mirror.stall(measured.tree(folder))
    gaps = [us for _, us in got["stopped_us"]]
    assert min(gaps) >= (console_stall.WINDOW_MS - KEYFRAME_MS) * 1000
    assert abs(max(gaps) / 1000 / measured.BOARD["console_stall_gap_ms"] - 1) <= 0.15
    assert got["no_host_us"] <= PERIOD_MS * 1000
