"""`provision scan`: the snippet the host tools run on the board to read one
tag, run here on CPython with the board's wiring on virtual parts
(tests/board_parts.py: a register-level MFRC522 per line of the 74HC138, its
address lines driven by stores to the SIO registers, as hal/board.py does)."""

import pytest
from board_parts import Parts

from hal.readers import Readers, read_one
from host_tools.provision_command import SCAN_SNIPPET
from sim.hw.clock import Clock
from sim.hw.vmfrc522 import VMFRC522
from sim.hw.vspi import VSPI
from sim.hw.vtag import VTag


@pytest.fixture
def table(monkeypatch):
    """The board's machine, rp2 and time, made of virtual parts: its readers."""
    return Parts(monkeypatch).chips


def run_snippet(seat, capsys):
    exec(SCAN_SNIPPET.format(seat=seat, timeout_ms=200), {})
    return capsys.readouterr().out.split()


def test_the_scan_snippet_reads_the_tag_on_that_seat(table, capsys):
    table[2].place(VTag(b"\x04\x11\x22\x33\x44\x55\x66"))
    assert run_snippet(2, capsys) == ["UID", "04112233445566"]


def test_the_scan_snippet_says_two_none_or_unfitted(table, capsys):
    table[1].place(VTag(b"\x04\x01\x02\x03"))
    table[1].place(VTag(b"\x04\x09\x08\x07"))
    assert run_snippet(1, capsys) == ["UID", "two"]
    assert run_snippet(0, capsys) == ["UID", "none"]
    assert run_snippet(5, capsys) == ["UID", "unfitted"]  # table_config fits seats 0-4


def test_read_one_on_readers_of_a_plain_bus():
    clock = Clock()
    bus = VSPI(clock, 4000000)
    chip = VMFRC522(clock)
    readers = Readers(bus, [bus.cs(chip)])
    assert read_one(readers, 0, 50, lambda ms: None) == b""
    chip.place(VTag(b"\x04\xaa\xbb\xcc"))
    assert read_one(readers, 0, 50, lambda ms: None) == b"\x04\xaa\xbb\xcc"
    assert read_one(readers, 3, 50, lambda ms: None) is None
