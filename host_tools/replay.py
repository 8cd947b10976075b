"""The transcript of a saved match, printed through the simulator.

A saved match is either the board's journal.bin (the journal image `backup`
writes: its segments one after the other; or a backup folder holding one) or
a match file written by `python -m sim --save`.  The journal is read by
journal_image.py, the match file by sim/matchfile.py: each the one reader of
its kind, and each refuses a header the match engine refuses
(games.header_refusal) with one line, and so a Dicefull match played with
another challenge set than the one on hand (--challenges, else the
built-in).  The journal's own records of the table (SEATS, SEED and SET: see
dicetable/app/play.py) are not the game's and are skipped; what is left is
folded by sim.play.replay, so the transcript is the one `python -m sim
--replay` prints for the same match.
"""

from __future__ import annotations

import os
import pathlib

from dicetable.games import header_refusal
from dicetable.games.dicefull import data as dicefull_data
from host_tools import journal_image
from host_tools.errors import ToolError, shown, why
from sim import matchfile
from sim.hostfile import special
from sim.play import replay

JOURNAL_FILE = "journal.bin"
NO_JOURNAL = "%s is a folder without a journal.bin (give a journal.bin, a backup or a match file)"
A_REGISTRY = "%s is a registry.bin (the tags), not a match: give a journal.bin or a match file"
NOT_REGULAR = "%s: not a regular file (%s); give a journal.bin, a backup folder or a match file"
NEITHER = "neither a match file nor a journal.bin (one starts with the bytes DJ)"


class ReplayError(ToolError, ValueError):
    pass


def read_journal(data: bytes, name: str = JOURNAL_FILE) -> tuple[str, int, int, list[int], str]:
    """(game, players, options, actions, note) from journal.bin bytes; `note`
    says what the load dropped ('' when the journal is whole)."""
    try:
        j = journal_image.read_image(bytes(data), name)
    except journal_image.JournalError as e:
        raise ReplayError(str(e)) from None
    return j.game, j.players, j.options, j.actions, j.note


def _sniff(path: pathlib.Path) -> bytes:
    """The first bytes of a file, to tell a journal image from a match file."""
    try:
        with open(path, "rb") as f:
            return f.read(2)
    except OSError:
        return b""  # the reader that follows says what is wrong


def load(path: str | pathlib.Path) -> tuple[str, int, int, list[int], str]:
    """(game, players, options, actions, note) of a journal.bin, a folder
    holding one, or a match file; ReplayError with one line if it is none."""
    p = pathlib.Path(path)
    if not os.fspath(path):
        raise ReplayError("no file named (give a journal.bin, a backup folder or a match file)")
    try:
        if p.is_dir():
            p = p / JOURNAL_FILE
            if not p.exists():
                raise ReplayError(NO_JOURNAL % shown(path))
    except OSError as e:
        raise ReplayError("cannot read %s: %s" % (shown(path), why(e))) from None
    kind = special(p)  # a FIFO would block _sniff() for ever
    if kind:
        raise ReplayError(NOT_REGULAR % (shown(p), kind))
    head = _sniff(p)
    if head == b"DR":
        raise ReplayError(A_REGISTRY % shown(p))
    if head in (b"DJ", b"DS"):
        try:
            j = journal_image.read_file(p)
        except ToolError as e:
            raise ReplayError(str(e)) from None
        other_set = j.set_refusal()
        if other_set:  # its REVEALs name challenges of that set
            raise ReplayError(other_set)
        return j.game, j.players, j.options, j.actions, j.note
    return _match_file(p)


def _match_file(p: pathlib.Path) -> tuple[str, int, int, list[int], str]:
    try:
        game, players, options, actions, played = matchfile.read(str(p))
    except ValueError as e:  # MatchFileError: 'path:line:column: what is wrong'
        text = str(e)
        hint = getattr(matchfile, "_JOURNAL_HINT", None)
        if hint and hint in text:  # binary: and not a journal image either (sniffed above)
            text = text.replace(hint, NEITHER)
        raise ReplayError(text) from None
    why_not = header_refusal(game, players, options)
    if why_not:
        raise ReplayError("%s: %s" % (shown(p), why_not))
    other_set = matchfile.set_refusal(shown(p), game, played, dicefull_data.SET_WORD)
    if other_set:  # as a journal's: its REVEALs name challenges of that set
        raise ReplayError(other_set)
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
