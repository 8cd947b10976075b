"""The pictures the docs show, drawn from the code they describe (`make pictures`).

    python tools/pictures.py            # write every picture again
    python tools/pictures.py --check    # exit 1, one line per stale picture

docs/img/led-legend.svg   the LED language: every entry of sim/legend.py (the
                          firmware's own pattern code drew its LEDs), as protanopia,
                          deuteranopia and tritanopia see it too, its name, meaning
                          and where it shows
hardware/wiring.svg       the Pico and what each GPIO of firmware/pins.py goes to,
                          read as hardware/pinmap.py reads it (pinmap.signals)

The output depends on nothing but the code: the same bytes on every run, so
that tests/test_legend.py can tell a stale picture.
"""

import re
import sys
import textwrap
from xml.sax.saxutils import escape

import sim
from hardware import pinmap, rp2040
from sim import legend, legend_cvd, legend_entry

ROOT = sim.ROOT

LEGEND = ROOT / "docs" / "img" / "led-legend.svg"
WIRING = ROOT / "hardware" / "wiring.svg"

FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"


def _text(x, y, s, size=12, fill="#000", anchor="start", weight="normal", extra=""):
    """A <text> element; `extra` holds more attributes (' font-style="italic"')."""
    style = 'font-size="%d" fill="%s" text-anchor="%s" font-weight="%s"'
    style %= (size, fill, anchor, weight)
    return '<text x="%d" y="%d" %s%s>%s</text>' % (x, y, style, extra, escape(s))


def _svg(width, height, body, background):
    head = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
        'viewBox="0 0 %d %d" font-family="%s">' % (width, height, width, height, FONT),
        '<rect width="%d" height="%d" fill="%s"/>' % (width, height, background),
    ]
    return "\n".join(head + body + ["</svg>", ""])


# -- the LED legend ------------------------------------------------------------------------

LED_R = 8  # an LED's radius
LED_PITCH = 20
MARGIN = 20
# Beside the LEDs as they are, smaller: as protanopia, deuteranopia and
# tritanopia see them (sim/legend_cvd.py's simulation).
VIEWS = (legend_cvd.NORMAL, *legend_cvd.DEFICIENCIES)
SIM_LED_R = 4
SIM_PITCH = 10
VIEW_X = [MARGIN] + [MARGIN + 16 * LED_PITCH + 16 + i * (16 * SIM_PITCH + 16) for i in range(3)]
TEXT_X = VIEW_X[-1] + 16 * SIM_PITCH + 24  # the words start right of a ring's 16 LEDs
LEGEND_WIDTH = TEXT_X + 600
WRAP = 92  # characters of a meaning per line
LIGHT = "#e8e8e8"
MUTED = "#a0a4ab"
OFF_STROKE = "#4a4d55"


def _leds(x, y, leds, view=legend_cvd.NORMAL):
    r, pitch = (LED_R, LED_PITCH) if view == legend_cvd.NORMAL else (SIM_LED_R, SIM_PITCH)
    return [
        '<circle cx="%d" cy="%d" r="%d" fill="%s" stroke="%s"/>'
        % (x + r + i * pitch, y, r, legend_cvd.css(tuple(rgb), view), OFF_STROKE)
        for i, rgb in enumerate(leds)
    ]


def _views(cy, leds):
    out = []
    for x, view in zip(VIEW_X, VIEWS, strict=True):
        out += _leds(x, cy, leds, view)
    return out


def _entry_rows(entry, y):
    """An entry's SVG elements from the top `y`, and the height they take."""
    out = ['<g id="led-%s">' % entry["key"]]
    cy = y + 10
    out += _views(cy, entry["leds"])
    if entry["blink"] is not None:
        # The other frame over it, hidden but half the time where SVG animates (a
        # browser), hidden for good where it does not: the lit frame is what stays.
        half = legend.BLINK_MS
        out.append('<g visibility="hidden">')
        out += _views(cy, entry["blink"])
        out.append(
            '<animate attributeName="visibility" values="hidden;visible" dur="%dms" '
            'calcMode="discrete" repeatCount="indefinite"/>' % (2 * half)
        )
        out.append("</g>")
        if any(any(rgb) for rgb in entry["blink"]):
            words = "alternates with another frame every %d ms" % half
        else:
            words = "blinks: %d ms lit, %d ms dark" % (half, half)
        out.append(_text(MARGIN, cy + 24, words, 11, MUTED))
    out.append(_text(TEXT_X, y + 14, entry["name"], 13, LIGHT, weight="bold"))
    line_y = y + 14
    for line in textwrap.wrap(entry["meaning"], WRAP):
        line_y += 16
        out.append(_text(TEXT_X, line_y, line, 12, LIGHT))
    line_y += 15
    out.append(_text(TEXT_X, line_y, entry["where"], 11, MUTED, extra=' font-style="italic"'))
    out.append("</g>")
    return out, max(line_y - y, 40 if entry["blink"] is not None else 0) + 14


def legend_svg(entries, groups):
    """docs/img/led-legend.svg's text: a row per entry, under its group's title."""
    body = [
        _text(MARGIN, 34, "What the LEDs say", 20, LIGHT, weight="bold"),
        _text(
            MARGIN,
            56,
            "Drawn by the firmware's own pattern code (firmware/dicetable/app/frames.py) "
            "through sim/legend.py; make pictures writes this file.",
            12,
            MUTED,
        ),
        _text(
            MARGIN,
            74,
            "A seat has %d LEDs, the centre ring %d. Screen colour per channel: "
            "255 × (v / 64)^0.6, so that dim LEDs stay visible; beside them as colour-blind "
            "eyes see them (Machado 2009, python -m sim.legend_cvd)."
            % (legend_entry.SEAT_LEDS, legend_entry.RING_LEDS),
            12,
            MUTED,
        ),
    ]
    for x, view in zip(VIEW_X, VIEWS, strict=True):
        words = "as they are" if view == legend_cvd.NORMAL else view
        body.append(_text(x, 100, words, 12, LIGHT, weight="bold"))
    y = 106
    for group, title in groups:
        rows = [e for e in entries if e["group"] == group]
        if not rows:
            continue
        y += 22
        body.append(_text(MARGIN, y + 8, title, 16, LIGHT, weight="bold"))
        body.append(
            '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s"/>'
            % (MARGIN, y + 16, LEGEND_WIDTH - MARGIN, y + 16, OFF_STROKE)
        )
        y += 28
        for entry in rows:
            elements, height = _entry_rows(entry, y)
            body += elements
            y += height
    return _svg(LEGEND_WIDTH, y + MARGIN, body, "#1e1f24")


# -- the wiring ----------------------------------------------------------------------------

PITCH = 26  # between two header pins
BODY_W = 150
STUB = 16  # straight wire out of a pin before any turn
TRACK = 10  # between two wires' vertical runs
GAP = 4  # between two part boxes
HALF = 9  # a box reaches this far above its first port and below its last
BOX_W = {"left": 230, "right": 300}
LINE = 14  # a text line in a box
SIDE_MARGIN = 24
TOP = 70  # the body's top edge

# A part's wire colour, by its id's start.
WIRE_COLOURS = (
    ("seat", "#555555"),
    ("maintenance", "#555555"),
    ("readers", "#1f5fbf"),
    ("decoder", "#8a2be2"),
    ("display", "#2e8b57"),
    ("leds", "#d2691e"),
    ("supply", "#c0392b"),
    ("rail", "#c0392b"),
)

# pins.py's names that are not per seat: (part, port on the part).
PORTS = {
    "MAINTENANCE": ("maintenance", "button"),
    "SPI_MISO": ("readers", "MISO"),
    "SPI_SCK": ("readers", "SCK"),
    "SPI_MOSI": ("readers", "MOSI"),
    "READER_RESET": ("readers", "RST"),
    "I2C_SDA": ("display", "SDA"),
    "I2C_SCL": ("display", "SCL"),
    "NEOPIXEL": ("leds", "1A"),
}


def header(pin):
    """(side, row) of a Pico header pin: 1-20 down the left, 21-40 up the right."""
    return ("left", pin - 1) if pin <= 20 else ("right", 40 - pin)


def pin_label(pin, used):
    """What the Pico's outline says at header pin `pin` (`used`: the GPIOs pins.py names)."""
    for gpio, p in rp2040.PICO_PIN.items():
        if p == pin:
            return "GP%d" % gpio if gpio in used else ""
    power = {rp2040.PICO_3V3_OUT: "3V3", rp2040.PICO_VSYS: "VSYS", rp2040.PICO_VBUS: "VBUS"}
    if pin in rp2040.PICO_GROUND_PINS:
        return "GND"
    return power.get(pin, "")


def part_and_port(name):
    """(part id, port) a GPIO of pins.py name `name` is wired to."""
    m = re.fullmatch(r"BUTTONS\[(\d+)\]\[(\d+)\]", name)
    if m:
        return "seat%s" % m.group(1), pinmap.BUTTON_NAMES[int(m.group(2))]
    m = re.fullmatch(r"CS_ADDRESS\[(\d+)\]", name)
    if m:
        return "decoder", "A" + m.group(1)
    return PORTS.get(name, (name, name))


def _seats(seats):
    """'seats 0–4' for a run of seats, else 'seats 0, 2, 3' ('seat 2' for one)."""
    s = sorted(seats)
    if len(s) == 1:
        return "seat %d" % s[0]
    if s == list(range(s[0], s[-1] + 1)):
        return "seats %d–%d" % (s[0], s[-1])
    return "seats " + ", ".join(str(x) for x in s)


def parts(pins, config):
    """{part id: (title, lines of text)} of everything a GPIO (or the power) goes to."""
    fitted = set(config.seats)
    who = ["centre" if r == pinmap.CENTRE else "seat %d" % r for r in range(len(pins.CS_LINE))]
    decoder = [
        "Y%d → %s reader SDA (CS)%s"
        % (line, who[r], "" if r == pinmap.CENTRE or r in fitted else ", not fitted")
        for r, line in enumerate(pins.CS_LINE)
    ]
    decoder.append("Y%d: the idle address, no reader" % pins.CS_IDLE)
    segments = max(config.seats) + 1
    out = {
        "maintenance": ("maintenance button", ["to GND; held at power-up:", "no table app"]),
        "readers": (
            "MFRC522 readers, SPI%d" % pins.SPI_ID,
            [
                "%s and the centre" % _seats(fitted),
                "chip select (SDA): the 74HC138",
                "RST low: every reader off",
            ],
        ),
        "decoder": ("74HC138 chip-select decoder", decoder),
        "display": ("SSD1306 display, I2C%d" % pins.I2C_ID, ["optional, address 0x3C"]),
        "leds": (
            "74AHCT125 level shifter",
            [
                "1Y → 330 Ω → the first LED's DIN",
                "seats 0–%d × %d LEDs, then the ring × %d"
                % (segments - 1, config.LEDS_PER_SEAT, config.RING_LEDS),
            ],
        ),
        "supply": ("5 V supply", ["through a Schottky diode"]),
        "rail": ("3.3 V out", ["readers, 74HC138, display, pull-ups"]),
    }
    for seat in range(len(pins.BUTTONS)):
        out["seat%d" % seat] = ("seat %d buttons" % seat, ["each to GND when pressed"])
    return out


def wires(pins):
    """[(side, row, part, port)]: every GPIO pins.py names, and the two power pins."""
    out = []
    for gpio, name, _, _ in pinmap.signals(pins):
        part, port = part_and_port(name)
        out.append(header(rp2040.PICO_PIN[gpio]) + (part, port))
    out.append(header(rp2040.PICO_VSYS) + ("supply", "VSYS"))
    out.append(header(rp2040.PICO_3V3_OUT) + ("rail", "3V3"))
    return out


def _row_y(row):
    return TOP + 40 + row * PITCH


def _stack(side_wires, titles):
    """Place one side's boxes top to bottom, each port level with its pin when it can:
    returns [(part, top, bottom, [(pin y, port y, port)])]."""
    by_part = {}
    for _, row, part, port in side_wires:
        by_part.setdefault(part, []).append((_row_y(row), port))
    boxes = []
    cursor = 0
    for part in sorted(by_part, key=lambda p: min(by_part[p])):
        ports = sorted(by_part[part])
        top = max(ports[0][0] - HALF, cursor)
        y = top + HALF
        placed = []
        for pin_y, port in ports:
            y = max(pin_y, y)
            placed.append((pin_y, y, port))
            y += PITCH
        text_h = HALF + 8 + LINE * len(titles[part][1])  # the title, its lines, a margin
        bottom = max(placed[-1][1] + HALF, top + text_h)
        boxes.append((part, top, bottom, placed))
        cursor = bottom + GAP
    return boxes


def _colour(part):
    for start, colour in WIRE_COLOURS:
        if part.startswith(start):
            return colour
    return "#000000"


def _bent(boxes):
    """The wires of one side that turn (port not level with pin), lowest pin first:
    the lowest takes the track next to the Pico, so that no two of them cross."""
    wires = [(pin_y, port_y) for b in boxes for pin_y, port_y, _ in b[3] if port_y != pin_y]
    return sorted(wires, reverse=True)


def _side(side, boxes, titles, body_x):
    """One side's boxes and wires (body_x: the Pico's edge on that side)."""
    sign = -1 if side == "left" else 1
    bent = _bent(boxes)
    track = {wire: body_x + sign * (STUB + (i + 1) * TRACK) for i, wire in enumerate(bent)}
    near = body_x + sign * (2 * STUB + (len(bent) + 1) * TRACK)  # the boxes' near edge
    x0 = near if side == "right" else near - BOX_W[side]  # the boxes' left edge
    out = []
    for part, top, bottom, placed in boxes:
        colour = _colour(part)
        out.append(
            '<rect x="%d" y="%d" width="%d" height="%d" rx="4" fill="#fafafa" stroke="%s"/>'
            % (x0, top, BOX_W[side], bottom - top, colour)
        )
        title, lines = titles[part]
        text_x = x0 + 10 if side == "left" else x0 + 56
        out.append(_text(text_x, top + HALF + 4, title, 12, weight="bold"))
        for i, line in enumerate(lines):
            out.append(_text(text_x, top + HALF + 4 + LINE * (i + 1), line, 11, "#333"))
        for pin_y, port_y, port in placed:
            path = "M%d %d" % (body_x + sign * 5, pin_y)
            if port_y != pin_y:
                x = track[(pin_y, port_y)]
                path += " H%d V%d" % (x, port_y)
            path += " H%d" % near
            out.append('<path d="%s" fill="none" stroke="%s" stroke-width="2"/>' % (path, colour))
            out.append(
                _text(
                    near + sign * 8,
                    port_y + 4,
                    port,
                    11,
                    colour,
                    "end" if side == "left" else "start",
                    "bold",
                )
            )
    return out


def _pico(left_x, bottom, used):
    """The Pico's outline from `left_x`, its 40 header pins and their names (`used`: the
    GPIOs pins.py names; a GPIO it leaves free is not named)."""
    right_x = left_x + BODY_W
    middle = (TOP + bottom) // 2
    out = [
        '<rect x="%d" y="%d" width="%d" height="%d" rx="8" fill="#2e7d32" stroke="#1b5e20"/>'
        % (left_x, TOP, BODY_W, bottom - TOP),
        '<rect x="%d" y="%d" width="40" height="18" rx="3" fill="#b0b0b0" stroke="#777"/>'
        % (left_x + BODY_W // 2 - 20, TOP - 10),
        _text(
            left_x + BODY_W // 2,
            middle,
            "Raspberry Pi Pico (RP2040)",
            13,
            "#e8f5e9",
            "middle",
            "bold",
            ' transform="rotate(-90 %d %d)"' % (left_x + BODY_W // 2, middle),
        ),
    ]
    for pin in range(1, 41):
        side, row = header(pin)
        y = _row_y(row)
        edge = left_x if side == "left" else right_x
        inward = 1 if side == "left" else -1
        anchor = "start" if side == "left" else "end"
        out.append(
            '<rect x="%d" y="%d" width="10" height="10" fill="#d4af37" stroke="#8d6e1f"/>'
            % (edge - 5, y - 5)
        )
        out.append(_text(edge + inward * 10, y + 4, str(pin), 9, "#c8e6c9", anchor))
        label = pin_label(pin, used)
        out.append(_text(edge + inward * 30, y + 4, label, 11, "#ffffff", anchor, "bold"))
    return out


def wiring_svg(pins, config):
    """hardware/wiring.svg's text: the Pico's header and the part each used pin goes to."""
    titles = parts(pins, config)
    all_wires = wires(pins)
    for _, _, part, _ in all_wires:
        titles.setdefault(part, (part, []))  # a name pins.py has and this file not yet
    stacks = {s: _stack([w for w in all_wires if w[0] == s], titles) for s in ("left", "right")}
    bent = {s: len(_bent(stacks[s])) for s in stacks}
    left_x = SIDE_MARGIN + BOX_W["left"] + 2 * STUB + (bent["left"] + 1) * TRACK
    right_x = left_x + BODY_W
    width = right_x + 2 * STUB + (bent["right"] + 1) * TRACK + BOX_W["right"] + SIDE_MARGIN
    bottom = TOP + 40 + 20 * PITCH
    body = [
        _text(
            SIDE_MARGIN,
            26,
            "Wiring: the Raspberry Pi Pico and what each GPIO goes to",
            16,
            weight="bold",
        ),
        _text(
            SIDE_MARGIN,
            46,
            "Generated from firmware/pins.py by tools/pictures.py (make pictures); the text "
            "version is wiring.txt, every pin in pinmap.md.",
            11,
            "#555",
        ),
    ]
    body += _pico(left_x, bottom, {gpio for gpio, _, _, _ in pinmap.signals(pins)})
    height = bottom + 40
    for side, edge in (("left", left_x), ("right", right_x)):
        body += _side(side, stacks[side], titles, edge)
        height = max([height] + [b[2] + 30 for b in stacks[side]])
    body.append(
        _text(
            SIDE_MARGIN,
            height - 12,
            "Header pin numbers inside the outline; every GND pin goes to the common ground.",
            11,
            "#555",
        )
    )
    return _svg(width, height, body, "#ffffff")


# -- writing and checking ------------------------------------------------------------------


def items_picture():
    """{docs/img/items.svg: every game's box as the web page draws its items}
    (sim/item_art.py, the page's own drawing of dice and cards)."""
    from sim import item_art

    return {ROOT / "docs" / "img" / "items.svg": item_art.box_svg()}


def outputs():
    """{path: text} of every picture."""
    pins = pinmap.load(pinmap.PINS)
    config = pinmap.load(pinmap.CONFIG)
    return {
        LEGEND: legend_svg(legend.entries(), legend.groups()),
        WIRING: wiring_svg(pins, config),
        **items_picture(),
    }


def stale():
    """The pictures whose file is missing or differs from what the code draws now."""
    return [
        path
        for path, text in outputs().items()
        if not path.exists() or path.read_bytes() != text.encode("utf-8")
    ]


def _shown(path):
    return str(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if "--check" in argv:
        old = stale()
        for path in old:
            print("%s is out of date: run make pictures" % _shown(path))
        return 1 if old else 0
    for path, text in outputs().items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
        print("wrote", _shown(path))
    return 0


if __name__ == "__main__":
    sys.exit(main())
