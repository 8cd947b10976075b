"""The host tools' own parts: the registry CSV, replay, monitor, the CLI.

The board connection, flash and backup are tested against the virtual board
in test_host_board.py; here provision import/export run against it too when
it is there (sim/vboard).
"""

import pathlib
import socket
import subprocess
import sys
import threading
import time

import pytest

import sim  # noqa: F401
from dicetable import games as registry
from dicetable.app import games
from dicetable.app.registry import Registry, pack
from dicetable.app.table import SEATS_RECORD, SEED_RECORD
from dicetable.games import GAMES
from dicetable.games import header as header_of
from flashmodel.vflash import VFlash
from hal.journal_segments import RECORDS
from hal.storage import Storage
from host_tools import monitor, registry_csv
from host_tools.__main__ import main
from host_tools.backup import BACKUP_AREA, encode, normalised
from host_tools.registry_csv import CsvError
from host_tools.replay import read_journal
from sim import boardport
from sim.__main__ import main as sim_main
from sim.play import play

ROOT = pathlib.Path(__file__).resolve().parent.parent
NOBODY = "socket://127.0.0.1:9"  # the discard port: nothing listens on loopback


def sample_entries():
    """Two tags of every game, including DTwww's two copies of one die."""
    out = []
    n = 0
    for g in range(len(GAMES)):
        for item in games.all_items(g)[:3]:
            n += 1
            uid = bytes((4, n, 0xA0, 0x5C)) if n % 2 else bytes((4, n, 2, 3, 4, 5, 6))
            out.append((uid, g, item))
    return out


# --- the CSV ---------------------------------------------------------------------


def test_csv_round_trip_numbers_and_names():
    entries = sample_entries()
    for names in (False, True):
        text = registry_csv.format_csv(entries, names=names)
        assert text.splitlines()[0] == "uid_hex,game,item"
        assert sorted(registry_csv.parse_csv(text)) == sorted(entries)


def test_csv_is_the_firmware_export_format():
    reg = Registry()
    reg.load(sample_entries())
    assert registry_csv.format_csv(sample_entries()) == "\n".join(reg.export_csv()) + "\n"


def test_registry_bin_is_the_boards_bytes_and_round_trips():
    entries = sample_entries()
    data = registry_csv.to_registry_bin(entries)
    fs = VFlash()
    Storage(fs).save_registry(pack(entries))
    assert data == registry_csv.read_file(fs, "registry.bin")
    assert sorted(registry_csv.from_registry_bin(data)) == sorted(entries)
    with pytest.raises(ValueError):
        registry_csv.from_registry_bin(data[:-1] + bytes((data[-1] ^ 1,)))


def test_item_names_copies_titles_and_spreadsheet_quirks():
    dtwww = registry.part(0, "rules")
    assert registry_csv.item_by_name(0, "red d6 copy 2") == dtwww.die(0, 1, 0, 1)
    assert registry_csv.item_by_name(3, "  Hearts   q ") == registry_csv.item_by_name(3, "hearts Q")
    assert registry_csv.game_index("d-TT") == registry_csv.game_index("dtt") == 3
    every = [name for g in range(len(GAMES)) for name in registry_csv.item_names(g).values()]
    assert len(every) == sum(len(games.all_items(g)) for g in range(len(GAMES)))
    text = "\ufeffUID_hex,Game,Item,,\n04:A1:B2:C3,Nokosu,purple die 3,,\n\n# a comment\n"
    assert registry_csv.parse_csv(text) == [
        (bytes.fromhex("04a1b2c3"), 4, registry_csv.item_by_name(4, "purple die 3"))
    ]


BAD = """uid_hex,game,item
04a1b2c3,dtwww,red d6 copy 1
04a1b2c4,dtwww,red d6
04a1b2c5,dtwww,red d6 copy 1
04a1b2c3,nokosu,purple die 3
zz,dtt,hearts Q
04a1b2,dtt,spades Q
04a1b2c9,chess,king
04a1b2ca,walzer,purple 99
04a1b2cb,dtt,1056
04a1b2cc,walzer
"""


def test_every_bad_row_class_reported_by_line():
    with pytest.raises(CsvError) as e:
        registry_csv.parse_csv(BAD)
    got = dict(e.value.errors)
    assert sorted(got) == [3, 4, 5, 6, 7, 8, 9, 10, 11]
    assert "ambiguous" in got[3]
    assert "already has a tag on line 2" in got[4]  # duplicate item
    assert "UID 04a1b2c3 is already on line 2" in got[5]  # duplicate UID
    assert "not hex" in got[6] and "3 bytes" in got[7]  # UID format
    assert "unknown game" in got[8]
    assert "unknown item" in got[9] and "unknown item" in got[10]
    assert "3 columns" in got[11]


def test_scan_row_checked_against_the_boards_registry():
    existing = [(bytes.fromhex("04a1b2c3"), 1, 5)]
    with pytest.raises(CsvError) as e:
        registry_csv.parse_csv("04a1b2c3,dtt,hearts Q\n04a1b2c4,walzer,5\n", existing)
    assert [line for line, _ in e.value.errors] == [1, 2]
    assert "in the board's registry" in e.value.errors[0][1]


def test_cli_bad_csv_writes_nothing_and_never_reaches_a_board(tmp_path, capsys):
    bad = tmp_path / "set.csv"
    bad.write_text(BAD)
    assert main(["provision", "import", str(bad), "--port", NOBODY]) == 1  # not 2: no board tried
    err = capsys.readouterr().err
    assert "set.csv:3:" in err and "set.csv:11:" in err and "nothing was written" in err


# --- replay ---------------------------------------------------------------------


def journal_bin(match, seats_mask, seed):
    """The journal image `backup` saves for a match the table wrote (its SEATS
    and SEED records with the header)."""
    return encode(
        header_of(match),
        [SEATS_RECORD | seats_mask, SEED_RECORD | seed] + list(match.journal),
    )


@pytest.mark.parametrize("game, players", [("walzer", 4), ("nokosu", 5)])
def test_journal_replay_equals_sim_replay(tmp_path, capsys, game, players):
    assert (
        sim_main(
            [
                "--game",
                game,
                "--players",
                str(players),
                "--seed",
                "3",
                "--save",
                str(tmp_path / "m.match"),
            ]
        )
        == 0
    )
    capsys.readouterr()
    assert sim_main(["--replay", str(tmp_path / "m.match")]) == 0
    expected = capsys.readouterr().out
    match = play(game, players, 0, ["heuristic"] * players, 3)
    (tmp_path / "journal.bin").write_bytes(journal_bin(match, (1 << players) - 1, 777))
    for path in (tmp_path / "journal.bin", tmp_path, tmp_path / "m.match"):
        assert main(["replay", str(path)]) == 0
        assert capsys.readouterr().out == expected


def test_torn_journal_replays_what_is_whole():
    match = play("dtt", 3, 0, ["random"] * 3, 5)
    data = bytearray(journal_bin(match, 7, 1))
    last = len(match.journal) - 1  # its record: a power cut left its last bytes 0xFF
    at = (last // RECORDS) * 4096 + 256 + (last % RECORDS) * 8
    data[at + 5 : at + 8] = b"\xff\xff\xff"
    game, players, options, actions, note = read_journal(bytes(data))
    assert (game, players, options) == ("dtt", 3, 0)
    assert actions == match.journal[:-1] and "torn" in note


def test_backup_saves_the_match_made_afresh_and_damage_as_it_is():
    # The same match gives the same journal.bin, however the board laid it out:
    # what makes backup, restore, backup give the same file (test_host_board.py).
    match = play("dtt", 3, 0, ["random"] * 3, 5)
    words = [SEATS_RECORD | 7, SEED_RECORD | 1] + list(match.journal)
    header = header_of(match)
    saved = encode(header, words, area=BACKUP_AREA)
    assert saved == encode(header, words, area=BACKUP_AREA) != encode(header, words)
    assert normalised({"journal.bin": encode(header, words)})["journal.bin"] == saved
    torn = bytearray(journal_bin(match, 7, 1))
    last = len(match.journal) - 1
    at = (last // RECORDS) * 4096 + 256 + (last % RECORDS) * 8
    torn[at + 5 : at + 8] = b"\xff\xff\xff"  # dropped, as the board drops it
    assert normalised({"journal.bin": bytes(torn)})["journal.bin"] == encode(
        header, words[:-1], area=BACKUP_AREA
    )
    damaged = bytearray(saved)
    damaged[256 + 8 * 2 + 1] ^= 0xFF  # a record in the middle: nothing of it is lost
    for image in (bytes(damaged), b"DJ\x01garbage", bytes(4096)):
        data = {"journal.bin": image, "registry.bin": b"as it is"}
        assert normalised(data) == data


def test_replay_of_a_bad_file_is_a_clear_error(tmp_path, capsys):
    (tmp_path / "x.bin").write_bytes(b"DJ\x01garbage")
    assert main(["replay", str(tmp_path / "x.bin")]) == 1
    assert main(["replay", str(tmp_path / "missing.bin")]) == 1
    assert capsys.readouterr().err.count("error:") == 2


# --- monitor --------------------------------------------------------------------


def test_monitor_formatting():
    when = 1700000000.25
    line = monitor.format_line(b"seat 2 refused: out of turn\r", when)
    assert line is not None
    assert line.endswith("REFUSED  seat 2 refused: out of turn")
    assert line[8:12] == ".250"
    assert monitor.format_line(">>> \x1b[0m", when) is None
    assert monitor.format_line(b"", when) is None
    assert monitor.format_line(b"@leds 000000\r", when) is None  # for the page's mirror
    assert monitor.format_line(b"@match -", when) is None
    assert monitor.mark("seat 0 play red d6:4") == ""
    assert monitor.mark("Traceback (most recent call last):") == "ERROR"
    assert monitor.mark("seat 3 reader not answering") == "FAULT"
    assert monitor.mark("journal: torn last record dropped") == "FAULT"
    assert monitor.mark("scored: seat 0 +3, seat 1 -1") == "SCORE"
    assert monitor.mark("resumed Nokosu at action 12") == "BOOT"
    assert boardport.clean(b"caf\xc3\xa9 \xff\x07ok") == "caf\u00e9 \ufffdok"


def test_monitor_follows_a_serial_url():
    """A stand-in board on a loopback socket: follow() reads it through pyserial."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    server.settimeout(10)
    port = server.getsockname()[1]

    def board():
        conn, _ = server.accept()
        time.sleep(0.5)  # pyserial drops what arrives while it opens (reset_input_buffer)
        conn.sendall(b"registry: 40 tags\r\nseat 1 play red 7\r\n>>> \r\nseat 2 ref")
        conn.sendall(b"used: out of turn\r\n")
        conn.recv(1)  # held open until the client closes
        conn.close()

    t = threading.Thread(target=board, daemon=True)
    t.start()
    lines = []
    try:
        assert (
            monitor.follow("socket://127.0.0.1:%d" % port, lines.append, max_lines=3, seconds=10)
            == 3
        )
    finally:
        t.join(5)
        server.close()
    assert [line[14:] for line in lines] == [
        "BOOT     registry: 40 tags",
        "         seat 1 play red 7",
        "REFUSED  seat 2 refused: out of turn",
    ]


# --- the CLI ----------------------------------------------------------------------


def run_cli(*args, timeout=30):
    return subprocess.run(
        [sys.executable, "-m", "host_tools", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_cli_help():
    r = run_cli("--help")
    assert r.returncode == 0
    for command in ("flash", "provision", "monitor", "backup", "restore", "replay"):
        assert command in r.stdout
    r = run_cli("provision", "--help")
    assert r.returncode == 0 and "import" in r.stdout and "scan" in r.stdout


def test_cli_monitor_without_a_board_is_one_line_exit_1():
    r = run_cli("monitor", "--port", NOBODY)
    assert r.returncode == 1
    assert r.stderr.splitlines() == [
        "error: no board at %s: nothing answers there; check the cable and the port (--port, "
        "e.g. /dev/ttyACM0, COM5 or socket://host:port)" % NOBODY
    ]


@pytest.mark.parametrize("args", [["provision", "export", "-"], ["backup", "BACKUP"]])
def test_cli_board_commands_without_a_board_exit_1(tmp_path, args):
    pytest.importorskip("host_tools.board")
    args = [str(tmp_path / a) if a == "BACKUP" else a for a in args]
    r = run_cli(*args, "--port", NOBODY, timeout=45)
    assert r.returncode == 1, r.stderr
    assert "Traceback" not in r.stderr
    assert r.stderr.splitlines() == [
        "error: no board at %s: nothing answers there; check the "
        "cable and the port (--port, e.g. /dev/ttyACM0, COM5 or "
        "socket://host:port)" % NOBODY
    ]
    assert not (tmp_path / "BACKUP").exists()


# --- provision import/export on the virtual board -----------------------------------


@pytest.fixture
def vboard(tmp_path):
    vb = pytest.importorskip("sim.vboard")
    pytest.importorskip("host_tools.board")
    flash = tmp_path / "flash"
    flash.mkdir()
    with vb.VirtualBoard(flash) as board:
        yield board


@pytest.mark.slow
def test_provision_import_export_on_the_virtual_board(vboard, tmp_path, capsys):
    url = vboard.url
    good = tmp_path / "set.csv"
    good.write_text(registry_csv.format_csv(sample_entries(), names=True))
    assert main(["provision", "import", str(good), "--port", url, "--no-reset"]) == 0
    out = tmp_path / "back.csv"
    assert main(["provision", "export", str(out), "--port", url]) == 0
    assert sorted(registry_csv.parse_csv(out.read_text())) == sorted(sample_entries())
    bad = tmp_path / "bad.csv"
    bad.write_text(BAD)
    assert main(["provision", "import", str(bad), "--port", url]) == 1
    assert main(["provision", "export", str(out), "--port", url]) == 1  # it exists
    assert main(["provision", "export", str(out), "--port", url, "--force"]) == 0
    assert sorted(registry_csv.parse_csv(out.read_text())) == sorted(sample_entries())
    capsys.readouterr()


def test_progress_lines(capsys):
    from host_tools.cli import progress

    progress(2, 7, "hal/board.mpy")
    progress(3, 7)
    assert capsys.readouterr().err == "file 2/7 hal/board.mpy\nfile 3/7\n"


@pytest.mark.slow
def test_the_freezing_manifest_and_the_games_playouts_are_not_flashed():
    # firmware/manifest.py is read by a frozen firmware's build, never on the board;
    # a game's playout.py (random playouts) is the simulator's.
    from host_tools.flash import build

    files = build(pathlib.Path(__file__).resolve().parent.parent / "firmware")
    assert (pathlib.Path(__file__).resolve().parent.parent / "firmware" / "manifest.py").exists()
    assert not any(name.startswith("manifest.") for name in files)
    assert "main.py" in files and "dicetable/match/engine.mpy" in files
    assert "dicetable/games/dtt/table.mpy" in files and "dicetable/games/__init__.mpy" in files
    assert not any(name.endswith("/playout.mpy") for name in files)


def test_the_freezing_manifest_freezes_the_package_without_the_playouts(monkeypatch):
    # MicroPython's build executes the manifest in its folder with these functions.
    firmware = pathlib.Path(__file__).resolve().parent.parent / "firmware"
    calls = []

    def recorder(name):
        return lambda *a, **k: calls.append((name, a, k))

    record = {name: recorder(name) for name in ("include", "package", "module")}
    monkeypatch.chdir(firmware)
    exec((firmware / "manifest.py").read_text(), dict(record))
    packages = {a[0]: k.get("files") for name, a, k in calls if name == "package"}
    files = packages["dicetable"]
    assert "games/dtt/table.py" in files and "app/table.py" in files
    assert "games/__init__.py" in files
    assert not any(f.endswith("playout.py") for f in files)
    assert (firmware / "dicetable" / "games" / "dtt" / "playout.py").exists()
    assert all((firmware / "dicetable" / f).exists() for f in files)
    assert packages["hal"] is None
