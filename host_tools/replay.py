"""The transcript of a saved match, printed through the simulator.

A saved match is either the board's journal.bin (the journal image `backup`
writes: its segments one after the other; or a backup folder holding one) or
a match file written by `python -m sim --save`.  The
journal's own records of the table (SEATS, kind 15, and SEED, kind 14: see
dicetable/app/table.py) are not the game's and are skipped; what is left is
folded by sim.play.replay, so the transcript is the one `python -m sim
--replay` prints for the same match.
"""

from __future__ import annotations

import pathlib

import sim  # noqa: F401  (puts firmware/ on sys.path)
from dicetable.match.engine import GAMES
from hal.storage import CORRUPT, STATUS_NAMES, TORN
from host_tools.backup import load_image
from sim import matchfile
from sim.play import replay

JOURNAL_FILE = "journal.bin"
_TABLE_KINDS = (0xE, 0xF)     # SEED, SEATS


class ReplayError(ValueError):
    pass


def read_journal(data: bytes) -> tuple[str, int, int, list[int], str]:
    """(game, players, options, actions, note) from journal.bin bytes; `note`
    says what the load dropped ('' when the journal is whole)."""
    header, actions, status = load_image(bytes(data))
    if header is None:
        raise ReplayError("journal.bin holds no match (%s)" % STATUS_NAMES[status])
    if header[0] >= len(GAMES):
        raise ReplayError("journal.bin names game %d, which the table does not have" % header[0])
    note = ""
    if status == TORN:
        note = "the journal's last record was torn (a power cut while writing it) and is left out"
    elif status == CORRUPT:
        note = "the journal is damaged after action %d; the transcript stops there" % len(actions)
    actions = [a for a in actions if a >> 20 not in _TABLE_KINDS]
    return GAMES[header[0]], header[1], header[2] | (header[3] << 8), actions, note


def load(path: str | pathlib.Path) -> tuple[str, int, int, list[int], str]:
    """(game, players, options, actions, note) of a journal.bin, a folder
    holding one, or a match file."""
    p = pathlib.Path(path)
    if p.is_dir():
        p = p / JOURNAL_FILE
    data = p.read_bytes()
    if data[:1] == b"D" and data[1:2] in (b"J", b"S") and len(data) % 4096 == 0:
        return read_journal(data)
    try:
        game, players, options, actions = matchfile.read(str(p))
    except (matchfile.MatchFileError, UnicodeDecodeError) as e:
        raise ReplayError("%s is neither a journal.bin nor a match file: %s" % (p, e)) from None
    return game, players, options, actions, ""


def transcript(path: str | pathlib.Path) -> tuple[list[str], str]:
    """(transcript lines, note) of a saved match; sim.play.RefusedAction if
    the rules refuse an action (the lines before it are lost with it: use
    replay_into to keep them)."""
    out: list[str] = []
    note = replay_into(path, out)
    return out, note


def replay_into(path: str | pathlib.Path, out: list[str]) -> str:
    """Append the transcript of a saved match to `out`; returns the note."""
    game, players, options, actions, note = load(path)
    replay(game, players, options, actions, out)
    return note

