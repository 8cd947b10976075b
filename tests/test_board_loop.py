"""hal/board.py, the board's wiring, run from the board's own boot.py and
main.py on virtual parts in virtual time (sim/hw/vpico.py): the pins it
claims come from pins.py; the readers answer through the 74HC138 driven by
SIO stores; the buttons are read from the GPIO input register; the LEDs go
out through the PIO state machine; the journal is on the virtual flash; the
main loop boots the table, answers its inputs and pushes its frames, and
keeps the watchdog fed until Ctrl-C, which hands it over to the maker."""

import pathlib
import sys

import pins
import table_config

from dicetable.app.events import PLUS
from dicetable.app.frames import ORDER as FRAME_ORDER
from dicetable.app.frames import led_count, starting
from sim.hw import scenes
from sim.hw.vpico import VirtualPico
from sim.hw.vpixels_portable import decode
from sim.hw.vrp2 import VStateMachine

FIRMWARE = pathlib.Path(__file__).resolve().parent.parent / "firmware"
HOUR_MS = 3600 * 1000


def shown(pico, k=-1):
    """Frame k the LEDs were sent (the last by default), as (r, g, b) per LED."""
    return decode(pico.rp2.machines[0].top_bytes(k), (1, 0, 2))


def test_the_board_boots_the_table_and_pushes_its_frames():
    pico = VirtualPico(FIRMWARE)
    seen = {}

    def world(p):
        scenes.logged(p, "menu:")
        p.wait(300)
        seen["frame"] = decode(bytes(p.table.frame), FRAME_ORDER)
        seen["mode"] = p.table.mode

    pico.power_up(world)
    # Every pin it claimed is in the pin map, once.
    expected = set(pins.CS_ADDRESS) | {
        pins.MAINTENANCE,
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
    assert sorted(pico.pins) == sorted(expected)
    assert seen["mode"] == "menu"
    assert pico.rp2.machines[0].puts  # the menu reached the LEDs, by DMA
    assert shown(pico) == seen["frame"]
    # The mirror's lines on the console beside the log: the LEDs, and no match.
    lines = pico.lines()
    assert any(line.startswith("@l ") for line in lines)
    assert any(line.startswith("@k -") for line in lines)


def test_the_first_frame_says_starting_before_the_app_is_loaded(monkeypatch):
    # The first thing the LEDs show is the power-up's pattern, sent before
    # the table app's modules are imported; the menu replaces it.
    loaded_at_first_frame = []
    put = VStateMachine.put

    def first_put(self, value, shift=0):
        if not self.puts:
            loaded_at_first_frame.append("dicetable.app.table" in sys.modules)
        put(self, value, shift)

    monkeypatch.setattr(VStateMachine, "put", first_put)
    pico = VirtualPico(FIRMWARE)

    def world(p):
        scenes.logged(p, "menu:")
        p.wait(300)

    pico.power_up(world)
    expected = bytearray(3 * led_count(table_config))
    starting(expected, table_config)
    assert loaded_at_first_frame == [False]
    assert shown(pico, 0) == decode(bytes(expected), FRAME_ORDER)
    ring = shown(pico, 0)[-table_config.RING_LEDS :]
    assert ring == [(8, 8, 8)] * table_config.RING_LEDS  # dim white: the table is starting
    assert shown(pico) != shown(pico, 0)  # the menu took over


def test_a_tag_reaches_the_app_through_the_decoder():
    pico = VirtualPico(FIRMWARE)

    def world(p):
        scenes.logged(p, "menu:")
        p.place(2, b"\x04\x11\x22\x33")
        scenes.logged(p, "seat 2: tag 04112233 ignored in the menu")

    pico.power_up(world)


def test_a_press_reaches_the_app_through_the_gpio_input_register():
    pico = VirtualPico(FIRMWARE)
    versions = []

    def world(p):
        scenes.logged(p, "menu:")
        t = p.table
        versions.append(t.frame_version)
        p.press(t.lead, PLUS)
        versions.append(t.frame_version)

    pico.power_up(world)
    assert versions[1] != versions[0]  # the menu moved on to the next game


def test_run_keeps_the_watchdog_fed_until_ctrl_c_hands_it_over():
    pico = VirtualPico(FIRMWARE)

    def world(p):
        scenes.logged(p, "menu:")
        p.wait(3 * 8000)  # three watchdog timeouts of the table at its menu
        fed = p.feeds
        p.interrupt()  # the maker's Ctrl-C
        p.wait(HOUR_MS)  # the maker at the REPL
        assert p.feeds > fed

    pico.power_up(world)
    assert pico.interrupted and pico.wdt_ms == 8000
    assert pico.fired == 0  # never a reset: fed by the loop, then by maintenance's timer


def test_maintenance_mode_starts_no_app_and_no_watchdog():
    pico = VirtualPico(FIRMWARE)

    def world(p):
        p.wait(2000)

    pico.power_up(world, maintenance=True)
    assert pico.lines() == ["maintenance: the table app is not started"]
    assert pico.wdt_ms == 0 and pico.rp2.machines == {}
