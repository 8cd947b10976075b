"""The LED legend (sim/legend.py) and the pictures drawn from the code
(tools/pictures.py): the legend covers every prompt and refusal code, its LEDs
are the firmware's own patterns, and the pictures in docs/ and hardware/ are current."""

import json
import re
import types

import pictures
import pins
import table_config

from dicetable.app import frames as fr
from dicetable.app import games
from dicetable.app import refusals as app_refusals
from dicetable.match import actions as ac
from hardware import pinmap
from sim import legend, legend_entry, legend_refusals

ENTRIES = legend.entries()
BY_KEY = {e["key"]: e for e in ENTRIES}
W = table_config.LEDS_PER_SEAT
OFF = [0, 0, 0]


def rgb(c):
    return list(c)


def test_entries_are_well_formed():
    assert len(BY_KEY) == len(ENTRIES), "keys are unique"
    groups = [g for g, _ in legend.groups()]
    assert [e["group"] for e in ENTRIES] == sorted((e["group"] for e in ENTRIES), key=groups.index)
    for e in ENTRIES:
        assert set(e) == {"key", "group", "name", "meaning", "where", "leds", "blink"}, e["key"]
        assert e["name"] and e["meaning"] and e["where"], e["key"]
        assert len(e["leds"]) in (W, table_config.RING_LEDS), e["key"]
        assert all(len(c) == 3 and all(0 <= v <= 255 for v in c) for c in e["leds"])
        assert e["blink"] is None or len(e["blink"]) == len(e["leds"])
    # The web page reads them as JSON.
    assert json.loads(json.dumps(ENTRIES)) == ENTRIES


def test_every_prompt_kind_has_an_entry_in_its_colour():
    for kind in range(1, len(fr.PROMPTS)):
        e = BY_KEY["prompt-" + ac.KIND_NAMES[kind]]
        assert rgb(fr.PROMPTS[kind]) in e["leds"], e["key"]


def test_every_refusal_code_has_an_entry_with_its_name():
    app_codes = sorted(
        v
        for k, v in vars(app_refusals).items()
        if k.isupper() and isinstance(v, int) and v > fr.APP_CODES
    )
    codes = list(range(1, len(ac.REFUSAL_NAMES))) + app_codes
    assert legend_refusals.refusal_codes() == codes
    for code in codes:
        e = BY_KEY["refusal-%d" % code]
        name = app_refusals.refusal_name(code)
        assert not name.startswith("refused (")
        assert name in e["name"]
        assert code in legend_refusals.WHY, (
            "say in legend_refusals.WHY what refusal %d means to a player" % code
        )
        assert e["blink"] == [OFF] * W  # the off phase of the blink


def test_a_number_is_tens_five_ones_and_its_marker():
    blue, white, green = rgb(fr.BLUE), rgb(fr.WHITE), rgb(fr.GREEN)
    marker = rgb(fr.PROMPTS[ac.ROLL])
    assert BY_KEY["number-27"]["leds"] == [blue, blue, white, green, green, OFF, OFF, marker]
    assert BY_KEY["number-7"]["leds"] == [white, green, green] + [OFF] * 4 + [marker]
    assert BY_KEY["number-negative"]["leds"] == [green] * 3 + [OFF] * 4 + [rgb(fr.PINK)]
    violet = rgb(fr.VIOLET)  # 39 = 1 + 2 + 4 + 32, lowest bit first
    assert BY_KEY["number-binary"]["leds"] == [violet] * 3 + [OFF, OFF, violet, OFF, marker]


def test_refusals_count_in_red_and_purple():
    red, purple = rgb(fr.RED), rgb(fr.TAG_ERROR)
    assert BY_KEY["refusal-5"]["leds"] == [red] * 5 + [OFF] * 3
    assert BY_KEY["refusal-engine"]["leds"] == BY_KEY["refusal-%d" % ac.ILLEGAL_PLAY]["leds"]
    assert BY_KEY["refusal-%d" % app_refusals.UNKNOWN_TAG]["leds"] == [purple] + [OFF] * 7
    assert BY_KEY["refusal-table"]["blink"] == [OFF] * W


def test_results_and_prompts_as_the_frames_draw_them():
    won, leads = rgb(fr.WINNER), rgb(fr.LEADER)
    assert BY_KEY["trick-winner-leads"]["leds"] == [won] * (W // 2) + [leads] * (W - W // 2)
    assert BY_KEY["place-1"]["leds"] == [rgb(fr.PLACES[0])] * W
    assert BY_KEY["place-4"]["leds"] == [rgb(fr.PLACES[3])] * 2 + [OFF] * (W - 2)
    assert BY_KEY["idle"]["leds"] == [rgb(fr.IDLE)] * W
    assert BY_KEY["prompt-pick-or-pass"]["leds"] == [rgb(fr.LIME)] * (W - 1) + [rgb(fr.PINK)]
    deal = BY_KEY["prompt-deal"]["leds"]  # 3 of 6 scanned: half the bar
    assert deal == [rgb(fr.CYAN)] * (W // 2) + [rgb(fr.DIM_CYAN)] * (W // 2)
    chase = BY_KEY["prompt-reveal"]["leds"]  # one bright LED over a dim copy
    dim = [v >> 3 for v in fr.PROMPTS[ac.REVEAL]]
    assert chase == [rgb(fr.PROMPTS[ac.REVEAL])] + [dim] * (table_config.RING_LEDS - 1)


def test_the_menu_ring_has_a_sector_per_game_and_provisioning():
    n = games.count()
    keys = ["menu-" + games.GAMES[g] for g in range(n)] + ["menu-provision"]
    for chosen, key in enumerate(keys):
        leds = BY_KEY[key]["leds"]
        bright = rgb(games.menu_colour(chosen))
        assert bright in leds, key
        for other in range(n + 1):
            if other != chosen:
                dim = [v >> 3 for v in games.menu_colour(other)]
                assert dim in leds and rgb(games.menu_colour(other)) not in leds, (key, other)


def test_css_keeps_dim_leds_visible():
    assert legend_entry.css((0, 0, 0)) == "#000000"
    assert legend_entry.css((64, 64, 64)) == "#ffffff"
    dim, bright = legend_entry.css(fr.IDLE), legend_entry.css(fr.WHITE)
    assert "#000000" < dim < bright


def test_the_pictures_are_up_to_date():
    assert pictures.stale() == [], "run: make pictures (python tools/pictures.py)"


def test_the_check_names_each_stale_picture(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(pictures, "LEGEND", tmp_path / "led-legend.svg")
    monkeypatch.setattr(pictures, "WIRING", tmp_path / "wiring.svg")
    assert pictures.main(["--check"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 2 and all("out of date" in line for line in out)


def test_the_legend_picture_shows_every_entry():
    svg = pictures.LEGEND.read_text(encoding="utf-8")
    for e in ENTRIES:
        assert 'id="led-%s"' % e["key"] in svg


def test_the_wiring_names_every_gpio_of_pins_py_and_no_other():
    svg = pictures.WIRING.read_text(encoding="utf-8")
    named = {int(n) for n in re.findall(r"\bGP(\d+)\b", svg)}
    assert named == {gpio for gpio, _, _, _ in pinmap.signals(pins)}
    for name in ("74HC138", "MFRC522", "SSD1306", "74AHCT125"):
        assert name in svg


def test_the_wiring_follows_the_pin_map():
    # Four seats of buttons and the LEDs on GP14: GP12 and GP13 are free, GP28 too.
    names = {k: getattr(pins, k) for k in dir(pins) if k.isupper()}
    names.update(BUTTONS=pins.BUTTONS[:4], NEOPIXEL=14)
    fewer = types.SimpleNamespace(**names)
    assert pinmap.problems(fewer) == []
    svg = pictures.wiring_svg(fewer, table_config)
    named = {int(n) for n in re.findall(r"\bGP(\d+)\b", svg)}
    assert named == {gpio for gpio, _, _, _ in pinmap.signals(fewer)}
    assert not named & {12, 13, 28} and 14 in named
    assert "seat 4 buttons" not in svg and "seat 3 buttons" in svg
