"""`provision scan`: the snippet the host tools run on the board to read one
tag, run here on CPython with machine's SPI and Pin wired to virtual readers
(a register-level MFRC522 per line of the 74HC138, as on the board, its
address lines driven by pin calls or by stores to the SIO registers)."""

import sys
import time
import types

import pytest

import pins
from hal.readers import Readers, read_one
from host_tools.__main__ import SCAN_SNIPPET
from sim.hw.clock import Clock
from sim.hw.vmfrc522 import VMFRC522
from sim.hw.vpin import VDecoder, VPin
from sim.hw.vspi import VSIO, VSPI
from sim.hw.vtag import VTag

SEATS_AND_CENTRE = 7


@pytest.fixture
def table(monkeypatch):
    """machine.SPI and machine.Pin as the board has them, made of virtual parts."""
    clock = Clock()
    bus = VSPI(clock, 4000000)
    chips = [VMFRC522(clock) for _ in range(SEATS_AND_CENTRE)]
    decoder = VDecoder([None] + [bus.cs(c) for c in chips])   # Y1.. = readers 0..6
    sio = VSIO()                                  # machine.mem32's GPIO_OUT_SET/CLR
    for k in range(3):
        sio.attach(pins.CS_ADDRESS[k], decoder.pins[k])

    def pin(number, mode=VPin.IN, pull=None, value=1):
        if number in pins.CS_ADDRESS:
            return decoder.pins[pins.CS_ADDRESS.index(number)]
        return VPin(value)

    machine = types.SimpleNamespace(Pin=pin, SPI=lambda *a, **k: bus, I2C=None, mem32=sio)
    pin.IN, pin.OUT, pin.PULL_UP = VPin.IN, VPin.OUT, VPin.PULL_UP
    monkeypatch.setitem(sys.modules, "machine", machine)
    monkeypatch.setitem(sys.modules, "neopixel", types.SimpleNamespace(NeoPixel=None))
    monkeypatch.setattr(time, "sleep_ms", lambda ms: None, raising=False)
    monkeypatch.delitem(sys.modules, "hal.board", raising=False)   # imported afresh, then forgotten
    return chips


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
    assert run_snippet(5, capsys) == ["UID", "unfitted"]    # table_config fits seats 0-4


def test_read_one_on_readers_of_a_plain_bus():
    clock = Clock()
    bus = VSPI(clock, 4000000)
    chip = VMFRC522(clock)
    readers = Readers(bus, [bus.cs(chip)])
    assert read_one(readers, 0, 50, lambda ms: None) == b""
    chip.place(VTag(b"\x04\xaa\xbb\xcc"))
    assert read_one(readers, 0, 50, lambda ms: None) == b"\x04\xaa\xbb\xcc"
    assert read_one(readers, 3, 50, lambda ms: None) is None
