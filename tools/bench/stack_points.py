"""The C stack's measured points, run again on the model (bench_stack.py).

    python stack_points.py TREE

TREE is a tree of the firmware the Pico was measured with (commit 74a722b)
with the model's files laid over it (bench_stack.MODEL).  Prints one JSON
object: the model's figure for each point measured on the board (the table
in docs/firmware.md, "The C stack"), and the deepest chains behind them:

    idle          an empty table's power-up to the menu, then 3 s at it
    resume        a power-up resuming a 759-action 5-player Nokosu match
    play          the first tag play of a resumed 97-action Nokosu match
    app_entry     the depth at Table.reader_event in that play
    flat_*        the same four plays with the app called from the readers
                  pass itself, the what-if the board was measured with
"""

import json
import pathlib
import sys

ROOT = pathlib.Path(sys.argv[1]).resolve()
# TREE's own code, not the installed checkout's: the firmware the board ran.
sys.path[:0] = [str(ROOT / "cpython"), str(ROOT / "firmware"), str(ROOT)]

from sim.cstack import StackMeter  # noqa: E402
from sim.hw import hands, scenes  # noqa: E402
from sim.hw.vpico import VirtualPico  # noqa: E402

FIRMWARE = ROOT / "firmware"
NOKOSU = 4
SEATS_RECORD = 0xF00000
SEED_RECORD = 0xE00000


def nokosu(n):
    from sim.play import play

    return play("nokosu", 5, 0, ["heuristic"] * 5, 1).journal[:n]


def meter():
    return StackMeter(FIRMWARE, keep=1)


def chain(m):
    return [[f.file, f.function, f.kind, f.bytes] for f in m.chains[0].frames]


def depth_at(m, function):
    # The most bytes at the entry of `function` over the run.
    best = 0
    for c in m.chains:
        total = 0
        for f in c.frames:
            total += f.bytes
            if f.function == function:
                best = max(best, total)
    return best


def run(flash_actions, world, keep=1):
    pico = VirtualPico(FIRMWARE)
    if flash_actions is not None:
        scenes.write_flash(
            pico,
            hands.full_registry(),
            [NOKOSU, 5, 0, 0],
            [SEATS_RECORD | 0x1F, SEED_RECORD | 1],
            flash_actions,
        )
    m = StackMeter(FIRMWARE, keep=keep)
    with m:
        pico.power_up(world)
    return m, pico


def idle(pico):
    scenes.logged(pico, "menu:")
    pico.wait(3000)


def resumed(pico):
    scenes.logged(pico, "resumed")
    pico.wait(100)


def plays(n):
    def world(pico):
        scenes.logged(pico, "resumed")
        pico.wait(500)
        surface = scenes.Hands(pico)
        for _ in range(n):
            t = pico.table
            acts = [a for a in hands.player_actions(t)]
            hands.make(surface, t, acts[0])
            pico.wait(1000)

    return world


# pico-stack's what-if: the readers pass hands the tag to the app itself,
# after polling, instead of the driver calling the app through its callbacks.
WHAT_IF = (
    "        wait = self.readers.service(now_ms, self._on_reader)\n",
    "        heard = []\n"
    "        wait = self.readers.service(now_ms, lambda e, r, u: heard.append((e, r, u)))\n"
    "        for e, r, u in heard:\n"
    "            self.garbage = True\n"
    "            self.heard = True\n"
    "            self.table.reader_event(e, r, u)\n",
)


def what_if():
    path = FIRMWARE / "hal" / "mainloop.py"
    text = path.read_text()
    if WHAT_IF[0] not in text:
        raise SystemExit("hal/mainloop.py is not the measured firmware's")
    path.write_text(text.replace(WHAT_IF[0], WHAT_IF[1]))


def main():
    out = {}
    m, _ = run(None, idle)
    out["idle"] = m.deepest
    out["idle_chain"] = chain(m)
    m, _ = run(nokosu(759), resumed)
    out["resume"] = m.deepest
    out["resume_chain"] = chain(m)
    m, _ = run(nokosu(97), plays(1), keep=50)
    out["play"] = m.deepest
    out["play_chain"] = chain(m)
    out["app_entry"] = depth_at(m, "Table.reader_event")
    what_if()
    m, _ = run(nokosu(97), plays(4), keep=50)
    out["flat_play"] = m.deepest
    out["flat_chain"] = chain(m)
    out["flat_readers_pass"] = depth_at(m, "MainLoop.readers_pass")
    out["flat_app_entry"] = depth_at(m, "Table.reader_event")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
