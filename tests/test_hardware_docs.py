"""The hardware package (hardware/) against the firmware: the generated pin map
is current, the pin map is one the RP2040 on a Pico can wire, and the numbers
the BOM and the power budget quote are the ones table_config.py and pins.py give."""

import pathlib
import re
import types

import pins
import pytest
import table_config

from dicetable.app import frames, games
from hardware import budget, pinmap, rp2040

ROOT = pathlib.Path(__file__).resolve().parent.parent
HW = ROOT / "hardware"


def fake_pins(**changes):
    """A copy of the pin map with some names changed."""
    names = {k: getattr(pins, k) for k in dir(pins) if k.isupper()}
    names.update(changes)
    return types.SimpleNamespace(**names)


# -- the pin map ------------------------------------------------------------


def test_the_generated_pin_map_is_up_to_date():
    assert pinmap.main(["--check"]) == 0, "run: .venv/bin/python -m hardware.pinmap"
    text = (HW / "pinmap.md").read_text()
    assert text == pinmap.render(pins, table_config)
    assert "GENERATED" in text


def test_the_pin_map_has_no_problems():
    assert pinmap.problems(pins) == []
    # Every GPIO the firmware names is in the table, once.
    named = [gpio for gpio, _, _, _ in pinmap.signals(pins)]
    assert len(named) == len(set(named)) == 26
    rows = re.findall(r"^\| GP(\d+) \| (\d+) \|", (HW / "pinmap.md").read_text(), re.M)
    assert sorted(int(g) for g, _ in rows) == sorted(named)
    assert all(rp2040.PICO_PIN[int(g)] == int(p) for g, p in rows)


@pytest.mark.parametrize(
    "changes, complaint",
    [
        ({"NEOPIXEL": 23}, "NEOPIXEL: GP23 is not a GPIO"),
        ({"READER_RESET": 29}, "READER_RESET: GP29 is not a GPIO"),
        ({"MAINTENANCE": 28}, "GP28 is already"),
        ({"SPI_SCK": 17, "CS_ADDRESS": (18, 20, 21)}, "SPI_SCK: GP17 cannot be SPI0 SCK"),
        ({"SPI_MOSI": 16, "SPI_MISO": 19}, "SPI_MISO: GP19 cannot be SPI0 RX"),
        ({"SPI_ID": 1}, "SPI_SCK: GP18 cannot be SPI1 SCK"),
        ({"I2C_ID": 0}, "I2C_SDA: GP26 cannot be I2C0 SDA"),
        ({"I2C_SDA": 27, "I2C_SCL": 26}, "I2C_SCL: GP26 cannot be I2C1 SCL"),
    ],
)
def test_a_wrong_pin_map_is_refused(changes, complaint):
    found = pinmap.problems(fake_pins(**changes))
    assert any(complaint in p for p in found), found


def test_the_rp2040_function_tables():
    # RP2040 datasheet 2.19.2 (GPIO function select), restricted to the Pico's header.
    assert rp2040.PICO_GPIOS == set(range(23)) | {26, 27, 28}
    assert rp2040.spi_pins(0, "SCK") == {2, 6, 18, 22}
    assert rp2040.spi_pins(0, "TX") == {3, 7, 19}
    assert rp2040.spi_pins(0, "RX") == {0, 4, 16, 20}
    assert rp2040.spi_pins(1, "SCK") == {10, 14, 26}
    assert rp2040.i2c_pins(1, "SDA") == {2, 6, 10, 14, 18, 22, 26}
    assert rp2040.i2c_pins(1, "SCL") == {3, 7, 11, 15, 19, 27}
    assert rp2040.i2c_pins(0, "SDA") == {0, 4, 8, 12, 16, 20, 28}
    assert rp2040.i2c_pins(0, "SCL") == {1, 5, 9, 13, 17, 21}
    # The header: 26 GPIOs and 8 grounds on 40 distinct pins.
    header = (
        list(rp2040.PICO_PIN.values())
        + list(rp2040.PICO_GROUND_PINS)
        + [rp2040.PICO_3V3_OUT, rp2040.PICO_VSYS, rp2040.PICO_VBUS]
    )
    assert set(rp2040.PICO_PIN) == rp2040.PICO_GPIOS
    assert len(header) == len(set(header)) and set(header) <= set(range(1, 41))


# -- the numbers the documents quote ------------------------------------------


def md_table(text, first_header):
    """The rows of the markdown table whose header row starts with `first_header`."""
    rows, inside = [], False
    for line in text.splitlines():
        if line.startswith("| " + first_header + " |"):
            inside = True
        elif inside and line.startswith("|---"):
            continue
        elif inside and line.startswith("|"):
            rows.append([c.strip().strip("*").strip() for c in line.strip("|").split("|")])
        elif inside:
            break
    return rows


def test_the_led_count_is_the_one_the_board_drives():
    # One formula, frames.led_count(): the board sizes the NeoPixel chain with it, the
    # app its frame, the simulator's rig its strip and the budget its LEDs.
    n = (max(table_config.seats) + 1) * table_config.LEDS_PER_SEAT + table_config.RING_LEDS
    assert frames.led_count(table_config) == budget.leds(table_config) == n == 56
    assert frames.Layout(table_config).leds == n
    for path in ("firmware/hal/board.py", "sim/hw/rig.py"):
        assert "led_count(" in (ROOT / path).read_text(), path


def test_power_md_matches_table_config():
    text = (HW / "power.md").read_text()
    rows = md_table(text, "item")
    expected = budget.rows(table_config)
    assert len(rows) == len(expected) + 1  # and the total row, checked below
    for row, (item, count, each, ma) in zip(rows, expected, strict=False):
        assert row[0] == item
        assert int(row[1]) == count
        assert row[2] == ("–" if each is None else str(each))
        assert int(row[3]) == ma
    assert rows[-1][0] == "total" and int(rows[-1][3]) == budget.total_ma(table_config)
    n = budget.leds(table_config)
    assert "**%d LEDs**" % n in text
    assert "`CURRENT_BUDGET_MA` = **%d mA**" % table_config.CURRENT_BUDGET_MA in text
    assert "%d × 61 = %d mA" % (n, n * 61) in text
    assert "at least %d mA**" % budget.supply_ma(table_config) in text
    assert (
        "%d × %d + %d = %d mA"
        % (
            budget.readers(table_config),
            budget.READER_MA,
            budget.DISPLAY_MA,
            budget.readers(table_config) * budget.READER_MA + budget.DISPLAY_MA,
        )
        in text
    )


def test_bom_md_matches_the_build():
    text = (HW / "bom.md").read_text()
    parts = {}
    for qty, part, _ in md_table(text, "qty"):
        if qty.endswith("†"):
            parts[part] = int(qty.rstrip("† "))
    assert parts == budget.counts(pins, table_config)
    assert parts["MFRC522 module"] == len(table_config.seats) + 1
    assert parts["tactile push button"] == sum(len(t) for t in pins.BUTTONS) + 1
    supply = [p for _, p, _ in md_table(text, "qty") if p.startswith("5 V power supply")]
    assert supply == ["5 V power supply, ≥ %d mA" % budget.supply_ma(table_config)]


def test_bom_md_has_a_tag_for_every_item():
    tags = {row[0]: int(row[1]) for row in md_table((HW / "bom.md").read_text(), "game")}
    expected = {games.title(g): len(games.all_items(g)) for g in range(games.count())}
    total = tags.pop("total")
    assert tags == expected
    assert total == sum(expected.values())


def test_the_wiring_drawing_and_build_steps_name_the_real_pins():
    wiring = (HW / "wiring.txt").read_text()
    for gpio, name, _, _ in pinmap.signals(pins):
        assert "GP%d[%d]" % (gpio, rp2040.PICO_PIN[gpio]) in wiring, name
    for reader, line in enumerate(pins.CS_LINE[:5]):
        assert "Y%d(" % line in wiring and "MFRC522 seat %d" % reader in wiring
    steps = (HW / "README.md").read_text()
    for needed in (
        "make flash PORT=",
        "python -m host_tools flash",
        "provision tags",
        "python -m host_tools provision",
        "maintenance",
    ):
        assert needed in steps
