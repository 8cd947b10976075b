"""hal/board.py, the board's wiring, run on CPython with the MicroPython-only
modules it imports stood in for by virtual parts (tests/board_parts.py):
the pins it claims come from pins.py; the readers answer through the
74HC138 driven by SIO stores; the buttons are read from the GPIO input
register; the LEDs go out through the PIO state machine; the journal is on
the virtual flash; the main loop boots the table, answers its inputs and
pushes its frames, and board.run() keeps the watchdog fed until Ctrl-C,
which hands it over to the maker."""

import asyncio
import importlib
import time

import pins
import pytest
import table_config
from board_parts import Parts, Recorded
from forked import in_a_fork

from dicetable.app.events import PLUS
from dicetable.app.frames import ORDER as FRAME_ORDER
from sim.hw.vpixels_portable import decode
from sim.hw.vtag import VTag


@pytest.fixture
def parts(monkeypatch):
    Recorded.made.clear()
    return Parts(monkeypatch)


def run_a_while(board, seconds, during=None):
    """The board's main() for `seconds` of the host's time; during(board) halfway."""

    class Dog:
        def beat(self, task):
            pass

        async def guard(self):
            await asyncio.Event().wait()

    async def go():
        task = asyncio.ensure_future(board.main(Dog()))
        await asyncio.sleep(seconds / 2)
        if during is not None:
            during(board)
        await asyncio.sleep(seconds / 2)
        task.cancel()

    asyncio.run(go())


def shown(parts):
    """The last frame the LEDs were sent, as (r, g, b) per LED."""
    return decode(parts.strip().top_bytes(), (1, 0, 2))


def test_the_board_boots_the_table_and_pushes_its_frames(parts):
    board = parts.hal_board().Board()
    # Every pin it claimed is in the pin map, once.
    expected = set(pins.CS_ADDRESS) | {
        pins.SPI_SCK,
        pins.SPI_MOSI,
        pins.SPI_MISO,
        pins.READER_RESET,
        pins.NEOPIXEL,
        pins.I2C_SDA,
        pins.I2C_SCL,
    }
    for s in table_config.seats:
        expected |= set(pins.BUTTONS[s])
    assert sorted(parts.pins) == sorted(expected)
    assert board.display is None  # no display fitted: the table works on, without its code
    run_a_while(board, 0.3)
    assert board.table.mode == "menu"
    assert parts.strip().puts  # the menu reached the LEDs, by DMA
    assert shown(parts) == decode(bytes(board.table.frame), FRAME_ORDER)
    # The mirror's lines on the console: the LEDs as sent, and no match yet.
    lines = bytes(parts.console.data).decode().splitlines()
    leds = [line for line in lines if line.startswith("@leds ")]
    assert leds[-1] == "@leds " + parts.strip().top_bytes().hex()
    assert "@match -" in lines


def test_a_tag_reaches_the_app_through_the_decoder(parts, capsys):
    board = parts.hal_board().Board()
    parts.chips[2].place(VTag(b"\x04\x11\x22\x33"))
    run_a_while(board, 0.3)
    assert board.readers.holding(2) == b"\x04\x11\x22\x33"
    assert "seat 2: tag 04112233 ignored in the menu" in capsys.readouterr().out


def test_a_press_reaches_the_app_through_the_gpio_input_register(parts):
    board = parts.hal_board().Board()
    lead = board.table.lead
    pressed = []

    def press(b):
        version = b.table.frame_version
        pin = parts.pins[pins.BUTTONS[lead][PLUS]]
        pin.press()
        pressed.append(version)

    def release(b):
        press(b)
        time.sleep(0.06)
        parts.pins[pins.BUTTONS[lead][PLUS]].release()

    run_a_while(board, 0.4, release)
    assert board.table.frame_version != pressed[0]  # the menu moved on to the next game


@pytest.mark.slow
@in_a_fork
def test_run_keeps_the_watchdog_fed_until_ctrl_c_hands_it_over(parts, monkeypatch):
    board = parts.hal_board()
    monkeypatch.setattr(importlib.import_module("maintenance"), "WATCHDOG_MS", 400)
    sleep = time.sleep_ms
    start = time.ticks_ms()

    def sleep_ms(ms):
        if time.ticks_ms() - start > 1500:
            raise KeyboardInterrupt  # the maker's Ctrl-C
        sleep(ms)

    monkeypatch.setattr(time, "sleep_ms", sleep_ms)
    with pytest.raises(KeyboardInterrupt):
        board.run()
    wdt, feeder = Recorded.made[0], Recorded.made[-1]
    assert wdt.args == ((), {"timeout": 400})
    # Every task beat between two checks, and the main loop let the guard run
    # at least every YIELD_MS (100 ms): about 15 checks in 1.5 s.
    assert wdt.feeds >= 10
    assert feeder is not wdt and feeder.args[1]["period"] == 100  # maintenance's timer
