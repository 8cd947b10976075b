"""Flash figures of the journal (`make bench`), on the NOR flash model at the
W25Q16's typical timings (sector erase 45 ms, page program 0.4 ms).

- The journal in place (hal/journal.py): a 5-player Nokosu match as the table
  writes it (the header with the seats and seed, then every action, an undo
  and its redo every 50 actions): flash busy time per accepted action (median
  and worst), sector erases per 100 actions, page programs per action.
- The old design for comparison: each action appended to journal.bin and
  flushed through real LittleFS (littlefs-python, the board's geometry).
- Wear: matches in a row on one board until a sector of the journal reaches
  100 000 erases (the W25Q16's rated endurance), from the erases per segment
  that 50 matches give.
"""

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "cpython"), str(ROOT / "firmware"), str(ROOT / "tests"), str(ROOT)]

from hal.storage import Storage  # noqa: E402
from sim.hw.norflash import NorFlash  # noqa: E402
from sim.hw.vflash import VFlash  # noqa: E402
from sim.play import play  # noqa: E402

ENDURANCE = 100000
WORDS = (0xF0001F, 0xE00001)


def match():
    m = play("nokosu", 5, 0, ["heuristic"] * 5, 1)
    return bytes(m.journal_bytes()[:4]), m.journal


def median(xs):
    s = sorted(xs)
    return s[len(s) // 2]


def play_match(storage, nor, header, journal):
    """Busy microseconds of every accepted action (an undo and redo every 50)."""
    busy = []
    before = nor.busy_us
    storage.new_match(header, WORDS)
    busy.append(nor.busy_us - before)
    for i, a in enumerate(journal):
        before = nor.busy_us
        storage.append(a)
        busy.append(nor.busy_us - before)
        if i % 50 == 49:
            before = nor.busy_us
            storage.undo()
            storage.append(a)
            busy.append(nor.busy_us - before)
    return busy


def new_design(header, journal):
    flash = VFlash()
    storage = Storage(flash)
    storage.prepare()
    nor = flash.raw
    erases, programs = sum(nor.erases), sum(nor.programs)
    busy = play_match(storage, nor, header, journal)
    records = len(journal) + 2 * (len(journal) // 50)
    return (
        busy,
        100 * (sum(nor.erases) - erases) / len(journal),
        (sum(nor.programs) - programs) / records,
    )


def wear(header, journal, matches=50):
    flash = VFlash()
    storage = Storage(flash)
    storage.prepare()
    start = list(flash.raw.erases)
    for _ in range(matches):
        play_match(storage, flash.raw, header, journal)
        storage.clear()
    blocks = storage._open().blocks
    worst = max(flash.raw.erases[b] - start[b] for b in blocks)
    return ENDURANCE * matches // worst


def old_design(journal):
    import test_flash_littlefs as lfs

    nor = NorFlash(lfs.PICO_BLOCKS)
    fs = lfs.mount(nor)
    f = fs.open("journal.bin", "wb")
    f.write(b"DJ\x01" + bytes(6))
    f.close()
    f = fs.open("journal.bin", "ab", buffering=0)
    busy = []
    erases, programs = sum(nor.erases), sum(nor.programs)
    for a in journal:
        before = nor.busy_us
        f.write(a.to_bytes(4, "little") + b"\x00\x00")
        f.flush()
        busy.append(nor.busy_us - before)
    f.close()
    n = len(journal)
    return busy, 100 * (sum(nor.erases) - erases) / n, (sum(nor.programs) - programs) / n


def main():
    header, journal = match()
    print(
        "journal flash figures: 5-player Nokosu match, %d actions, NOR model at W25Q16"
        " typicals (erase 45 ms, page program 0.4 ms)" % len(journal)
    )
    busy, erases, programs = new_design(header, journal)
    print(
        "  in place (hal/journal.py): busy per accepted action median %.1f ms, worst %.1f ms;"
        " %.2f erases per 100 actions; %.2f page programs per action"
        % (median(busy) / 1000, max(busy) / 1000, erases, programs)
    )
    busy, erases, programs = old_design(journal)
    print(
        "  before (append + flush through LittleFS): busy median %.1f ms, worst %.1f ms;"
        " %.1f erases per 100 actions; %.2f page programs per action"
        % (median(busy) / 1000, max(busy) / 1000, erases, programs)
    )
    print(
        "  wear: %d full matches before a journal sector reaches %d erases"
        % (wear(header, journal), ENDURANCE)
    )


if __name__ == "__main__":
    main()
