"""The USB console that never waits (firmware/hal/console.py), over the model
of MicroPython's rp2 USB CDC transmit path (sim/hw/vconsole.py): whole
packets, lines dropped whole and counted when nobody reads, the loss said
when reading resumes, nothing allocated under MicroPython with the Pico's
heap, every frame on the C stack."""

import pathlib

import pytest

from hal.console import PACKET, Console
from host_tools.monitor import format_line
from sim import mpy_wasm
from sim.hw.clock import Clock
from sim.hw.vconsole import FIFO, TIMEOUT_MS, Host, VConsole
from sim.mpy_code import C_STACK_FRAME_WORDS, frame_words, function_frames

FIRMWARE = pathlib.Path(__file__).resolve().parents[1] / "firmware"


def console(host=None):
    clock = Clock()
    vc = VConsole(clock, Host() if host is None else host)
    return Console(vc), vc, clock


class Sizes:
    """The sizes of the writes a stream gets."""

    def __init__(self, vc):
        self.vc = vc
        self.sizes = []

    def write(self, buf, off=0, n=-1):
        self.sizes.append(len(buf) - off if n < 0 else n)
        return self.vc.write(buf, off, n)

    def ipoll(self, timeout):
        return self.vc.ipoll(timeout)


@pytest.mark.parametrize("length", [0, 1, 20, 62, 63, 126, 127, 200, 254])
def test_a_line_goes_out_as_whole_packets_spaces_before_its_line_end(length):
    vc = VConsole()
    sizes = Sizes(vc)
    c = Console(sizes)
    text = "".join(chr(97 + i % 26) for i in range(length))
    c.line(text)
    packets = (length + 2 + PACKET - 1) // PACKET
    assert sizes.sizes == [PACKET] * packets
    assert bytes(vc.data) == text.encode() + b" " * (packets * PACKET - 2 - length) + b"\r\n"


def test_a_line_longer_than_four_packets_is_cut_and_characters_of_several_bytes_count():
    vc = VConsole()
    c = Console(vc)
    c.line("x" * 300)
    c.line("seat 2: tag ümlaut ignored")  # 27 characters, 28 bytes
    assert vc.lines() == ["x" * 254, "seat 2: tag ümlaut ignored"]
    assert len(vc.data) == 4 * PACKET + PACKET


def test_nothing_waits_when_the_host_stops_reading_and_the_loss_is_said_after():
    c, vc, clock = console()
    c.line("before")
    vc.host.stop()
    sent = ["line %d" % i for i in range(40)]
    for line in sent:
        c.line(line)
    # The FIFO and the packet in flight took five lines; the rest were dropped.
    assert clock.now_us == 0 and vc.waited_us == 0
    assert c.lost == 35 and c.dropped == 35
    vc.host.resume()
    clock.advance(1000)
    c.line("after")
    assert vc.lines() == ["before", *sent[:5], "@lost 35", "after"]
    assert c.dropped == 0 and c.lost == 35
    assert format_line(b"@lost 35", 0).endswith(
        "LOST     the board dropped 35 lines: nothing read its console in time"
    )


def test_a_long_line_that_finds_the_fifo_full_is_finished_before_anything_else():
    c, vc, clock = console()
    vc.host.stop()
    for i in range(4):
        c.line("short %d" % i)
    long = "L" * 150  # three packets: one fits, two wait
    c.line(long)
    c.line("dropped while the long line waits")
    assert c.room() is False and vc.waited_us == 0
    vc.host.resume()
    # The long line's two packets left, then the loss line: one a call to room().
    assert [c.room() for _ in range(4)] == [False, False, False, True]
    c.line("next")
    assert vc.lines() == ["short 0", "short 1", "short 2", "short 3", long, "@lost 1", "next"]


def test_a_slow_reader_gets_whole_lines_and_what_was_dropped_in_between():
    c, vc, clock = console(Host(every_us=20_000))
    sent = []
    for i in range(200):
        line = "line %d:%s" % (i, "y" * (i % 90))
        sent.append(line)
        c.line(line)
        clock.advance(2000)  # a line every 2 ms, a packet read every 20 ms
    vc.host.resume()
    c.line("the end")  # what is owed goes out first
    assert vc.waited_us == 0
    got = vc.lines()[:-1]
    lost = sum(int(x.split()[1]) for x in got if x.startswith("@lost "))
    kept = [x for x in got if not x.startswith("@lost ")]
    assert lost == c.lost > 0 and len(kept) + lost == len(sent)
    assert kept == [x for x in sent if x in kept]  # whole, in order


def test_with_the_port_closed_nothing_waits_and_nothing_is_dropped():
    c, vc, clock = console(Host(connected=False))
    for i in range(100):
        c.line("nobody has the port open %d" % i)
    assert clock.now_us == 0 and vc.waited_us == 0 and c.lost == 0
    assert vc.data == b"" and len(vc.fifo) == FIFO  # the FIFO keeps the latest


def test_the_model_waits_as_the_port_does_for_a_line_written_without_looking():
    # What the mirror of 74a722b did: a 343-byte @leds line, with print(), into
    # a port held open by a host that stopped reading: 500 ms without progress.
    clock = Clock()
    vc = VConsole(clock, Host())
    vc.host.stop()
    line = b"@leds " + b"0" * 336 + b"\n"
    written = vc.write(line)
    assert written == FIFO + PACKET  # the FIFO and the packet in flight
    assert vc.waited_us == clock.now_us == TIMEOUT_MS * 1000
    assert [x for _, x in vc.ipoll(0)] == []  # POLLOUT: no room
    vc.host.close()  # the port closed (DTR low): writes never wait
    assert vc.write(line) == len(line) and vc.waited_us == TIMEOUT_MS * 1000


def test_a_stray_write_can_hold_one_line_once_until_the_fifo_empties():
    # Bytes that are not whole packets (a traceback, the REPL) while the
    # endpoint is busy leave the FIFO holding part of a packet: a host that
    # stops reading then can make one write wait (docs/firmware.md).
    c, vc, clock = console()
    vc.host.stop()
    c.line("first")  # in flight: the endpoint is busy from here on
    vc.write(b"Traceback\r\n")  # 11 bytes
    for i in range(4):
        c.line("line %d" % i)
    assert vc.waited_us == TIMEOUT_MS * 1000  # the fourth line found 53 bytes
    waited = vc.waited_us
    for i in range(20):
        c.line("more %d" % i)
    assert vc.waited_us == waited  # once: the FIFO is full, and the poll says so
    vc.host.resume()
    c.line("drained")
    vc.host.stop()
    for i in range(20):
        c.line("again %d" % i)
    assert vc.waited_us == waited  # emptied once, the FIFO holds whole packets again


# Under MicroPython with the Pico's heap: a line costs no heap, written or dropped.
HEAP = """
import gc, io, select, sys
from hal.console import Console


# Polls in C, as the board's: one for POLLOUT on stdout (always room here), one for nothing.
yes = select.poll()
yes.register(sys.stdout, select.POLLOUT)
no = select.poll()

out = io.BytesIO()
out.write(bytearray(8192))  # room, so that writing into it again does not grow it
console = Console(out, yes)
SHORT = "seat 2 play red d6:4"
LONG = "new match: Nokosu Dice, seats 0 1 2 3 4, length 5, variant, table rolls, default"
WIDE = "seat 2: tag \\u00fcmlaut ignored"


def lines(n, room):
    console._poll = yes if room else no
    gc.collect()
    before = gc.mem_alloc()
    for i in range(n):
        out.seek(0)
        console.line(SHORT)
        console.line(LONG)
        console.line(WIDE)
        if i % 7 == 0:  # a line dropped, then the loss line said
            console._poll = no
            console.line(LONG)
            console._poll = yes if room else no
    return gc.mem_alloc() - before


#: next run
lines(10, True)
lines(10, False)
#: next run
print(lines(100, True), lines(100, False), console.lost)
"""


def test_a_line_costs_no_heap_under_micropython_written_or_dropped():
    written, dropped, lost = (int(x) for x in mpy_wasm.run(HEAP).split())
    assert written == 0 and dropped == 0
    assert lost > 300  # the dropped lines were dropped


def test_the_consoles_frames_fit_on_the_c_stack():
    path = FIRMWARE / "hal" / "console.py"
    frames = {name: frame_words(s, e) for name, s, e in function_frames(path)}
    per_line = {"line", "room", "put", "_ready", "_more", "_owed", "_report"}
    assert per_line <= set(frames)
    assert {k: frames[k] for k in per_line if frames[k] > C_STACK_FRAME_WORDS} == {}
