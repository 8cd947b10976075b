"""The power-up model's parts (tools/bench/bench_boot.py): what it counts of
the .mpy files, the rp2 firmware's lookups of modules that are no files,
LittleFS's work per call, its calibration; and that the board's boot runs
under its stand-ins to the app's first frame."""

import subprocess

import bench_boot
import littlefs
import pytest

from flashmodel.norflash import NorFlash
from sim import mpy_wasm


def test_a_mpy_file_is_counted_by_its_names_functions_and_constants(tmp_path):
    src = tmp_path / "m.py"
    src.write_text(
        "X = b'some bytes'\n\n"
        "def first(a):\n    return a\n\n"
        "class Second:\n    def third(self):\n        return b'bytes'\n"
    )
    out = tmp_path / "m.mpy"
    subprocess.run([mpy_wasm._mpy_cross(), "-march=armv6m", "-o", str(out), str(src)], check=True)
    names, functions, objects = bench_boot.mpy_stats(out.read_bytes())
    assert {b"first", b"Second", b"third"} <= set(names)
    assert functions == 4  # the module, first, the class body, third
    assert objects == 2  # the two bytes (a short str would be a name)


def stats(events):
    return [e[1] for e in events if e[0] == "stat"]


def test_an_extensible_built_in_is_looked_for_at_every_import_a_frozen_one_once():
    events = [["import", "time", 0], ["import", "time", 0]]
    events += [["import", "asyncio", 0], ["import", "asyncio", 0]]
    looked = stats(bench_boot.rp2_events(events, frozen=False))
    assert looked == [
        "time",
        "time.py",
        "time.mpy",
        "lib/time",
        "lib/time.py",
        "lib/time.mpy",
    ] * 2 + [
        "asyncio",
        "asyncio.py",
        "asyncio.mpy",
    ]


def test_a_built_in_in_sys_modules_or_by_its_u_name_is_looked_for_nowhere():
    # main.py imports utime (the built-in at once) and puts it in sys.modules
    # as time: every later `import time` finds it there.
    events = [["import", "utime", 0, 0], ["import", "time", 0, 1], ["import", "array", 0, 0]]
    looked = stats(bench_boot.rp2_events(events, frozen=False))
    once = ["array", "array.py", "array.mpy"]
    assert looked == once + ["lib/" + x for x in once]


def test_the_webassembly_builds_own_lookups_give_way_to_the_boards():
    events = [["import", "array", 0], ["stat", "array", 0], ["stat", "array.py", 0]]
    events += [["stat", "registry.bin", 1]]  # the app's own: kept
    looked = stats(bench_boot.rp2_events(events, frozen=False))
    assert looked.count("array") == 1 and looked[-1] == "registry.bin"


def test_a_frozen_firmware_reads_no_module_file_and_looks_for_a_top_name_once():
    events = [
        ["import", "hal.board", 0],
        ["stat", "hal", 2],
        ["open", "hal/__init__.mpy", "rb"],
        ["read", "hal/__init__.mpy", 255, 30],
        ["close", "hal/__init__.mpy"],
        ["import", "hal.storage", 0],
        ["open", "journal.map", "rb"],
    ]
    got = bench_boot.rp2_events(events, frozen=True)
    assert stats(got) == ["hal", "hal.py", "hal.mpy"]
    assert [e[1] for e in got if e[0] == "open"] == ["journal.map"]


def lfs_board(files):
    _, mount = bench_boot._littlefs()
    nor = NorFlash(bench_boot.PICO_BLOCKS)
    fs, dev = mount(nor, fresh=True)
    bench_boot.make_flash(fs, files)
    fs.unmount()
    fs, dev = mount(nor)
    return bench_boot.Replay(fs, dev, littlefs)


def test_a_lookup_checks_every_folder_on_its_path():
    files = {"boot.py": b"x" * 300, "a/b/c/deep.mpy": b"M" * 2000, "top.mpy": b"M" * 2000}
    replay = lfs_board(files)
    top = replay.call(["stat", "top.mpy", 1])
    deep = replay.call(["stat", "a/b/c/deep.mpy", 1])
    assert top["meta"] > 0 and deep["meta"] > 2 * top["meta"]
    replay.call(["open", "a/b/c/deep.mpy", "rb"])
    assert replay.call(["read", "a/b/c/deep.mpy", 255, 255])["data"] > 0
    assert replay.call(["tick", 0]) is None  # not a filesystem call


def test_the_calibration_solves_its_rows():
    assert bench_boot._solve([[1.0, 2.0, 5.0], [1.0, -1.0, -1.0]]) == pytest.approx([1.0, 2.0])
    for row in bench_boot.CALIBRATION:
        assert row in bench_boot.MEASURED


@pytest.mark.slow
def test_the_boards_boot_runs_under_the_stand_ins_to_the_apps_first_frame():
    # The bench's trace of an empty table: boot.py and main.py as the board
    # runs them, to the menu and the frame after it (a change to the board's
    # start that the stand-ins do not carry fails here, not in make bench).
    files = bench_boot.board_files(mpy_wasm.ROOT)
    empty = bench_boot.scenarios({"registry": [], "header": b"", "journal": [0]})["empty"]
    _, events, miso = bench_boot.trace(files, empty)
    kinds = [e[0] for e in events]
    assert "stop" not in kinds, [e for e in events if e[0] == "stop"]
    assert ["frame", 1] in events and miso
    assert any(e[0] == "log" and e[1].startswith("menu:") for e in events)
