"""The board's journal on the host: the one reader of a journal image.

A journal image is what `backup` saves as journal.bin: a journal's segment
files (journal0.seg ...) one after the other, each one 4096-byte flash block
(hal/storage.py, hal/journal.py); backup saves the board's match made afresh
by encode() (backup.normalised).  backup, restore and replay
all read it here, with the board's own loader (hal.storage.Storage over the
NOR flash model), so the host reads exactly what the board would.

read_image(data) checks the image whole and returns a Journal, or raises
JournalError with one line naming the first problem: a size that is not 1
to MAX_BLOCKS whole blocks, no match in it (the board had cleared it, or it
is not a journal), a header the match engine refuses
(games.journal_header_refusal, as the table at power-up: a game number past
the games, a player count or option bits the game does not take).  A
torn last record (a power cut while writing it) is dropped as the board
drops it; damage further in stops the journal there: `status` says which,
`note` says it in words.

check_replays(journal) folds every action through the game's engine, as the
board does when it resumes the match: a malformed action word or one the
rules refuse raises JournalError with its number (1 = the first action of
the game) and the reason.

The table's own records (SEATS and SEED: dicetable/app/play.py) are
journal words of kinds no game uses; Journal.actions leaves them out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dicetable.app.play import FIRMWARE_RECORD, SET_RECORD
from dicetable.app.table import SEATS_RECORD, SEED_RECORD
from dicetable.games import journal_header, journal_header_refusal, new_match
from dicetable.games.dicefull import data as dicefull_data
from dicetable.match.actions import KIND_SHIFT, OK, REFUSAL_NAMES
from dicetable.match.engine import malformed
from flashmodel.norflash import BLOCK, NorFlash
from flashmodel.vflash import VFlash
from hal import storage as st
from hal.journal_segments import VERSION
from host_tools.errors import ToolError, read_bytes, size_text

TABLE_KINDS = tuple(
    word >> KIND_SHIFT for word in (SEATS_RECORD, SEED_RECORD, SET_RECORD, FIRMWARE_RECORD)
)
MAX_BLOCKS = st.SEGMENTS  # the board keeps its journal in 8 segments
WHAT = "a journal image (journal.bin, as backup saves it)"
_MAGIC = (b"DJ", b"DS")  # a segment's header, a segment made and not yet used
MALFORMED = "%s: action %d (%#x) is malformed (a bit means nothing): the journal does not replay"
REFUSED = "%s: action %d (%#x) is refused by the %s rules (%s): the journal does not replay"


class JournalError(ToolError, ValueError):
    """A journal image that cannot be read or does not replay (one line)."""


def is_table_word(word: int) -> bool:
    """True for the table's own records (SEATS, SEED, SET, FIRMWARE), which no game reads."""
    return word >> KIND_SHIFT in TABLE_KINDS


def segment_name(i: int) -> str:
    """The board's file of journal segment i."""
    return "journal%d.seg" % i


@dataclass
class Journal:
    """A journal image read whole."""

    game: str
    players: int
    options: int
    header: bytes  # the 4 header bytes
    words: list[int]  # every word: the table's records first, then actions
    status: int  # st.OK, st.TORN or st.CORRUPT (damage: words stop there)
    name: str = "journal.bin"
    actions: list[int] = field(init=False)

    def __post_init__(self) -> None:
        self.actions = [w for w in self.words if not is_table_word(w)]

    @property
    def note(self) -> str:
        """What the load left out, in words ('' when the journal is whole)."""
        if self.status == st.TORN:
            return (
                "the journal's last record was torn (a power cut while writing it) and is left out"
            )
        if self.status == st.CORRUPT:
            return "the journal is damaged after action %d; what follows it is lost" % len(
                self.actions
            )
        return ""

    @property
    def set_word(self) -> int:
        """The word of the challenge set a file gave the match (its SET record;
        0: the built-in set, as in every journal without one)."""
        for w in self.words:
            if w >> KIND_SHIFT == SET_RECORD >> KIND_SHIFT:
                return w & 0xFFFFF
        return 0

    def set_refusal(self) -> str | None:
        """Why this journal cannot be folded with the challenge set on hand
        (dicefull's data.SET_WORD: the built-in set unless --challenges gave
        one), or None."""
        here = dicefull_data.SET_WORD
        if self.set_word == here:
            return None
        return "%s: played with %s, and the set here is %s (give its file with --challenges)" % (
            self.name,
            set_name(self.set_word),
            set_name(here),
        )

    def summary(self) -> str:
        """'walzer, 4 players, 312 actions'."""
        return "%s, %d players, %d action%s" % (
            self.game,
            self.players,
            len(self.actions),
            "" if len(self.actions) == 1 else "s",
        )


def load_image(data: bytes) -> tuple[bytes | None, list[int], int]:
    """(header4, words, status) of a journal image, as the board loads it
    (hal.storage.Storage.load); never raises on bad data."""
    n = len(data) // BLOCK
    if n == 0 or len(data) % BLOCK or n > MAX_BLOCKS:
        return None, [], st.CORRUPT
    nor = NorFlash(n)
    placed = {}
    for i in range(n):
        nor.block(i)[:] = data[i * BLOCK : (i + 1) * BLOCK]
        placed[segment_name(i)] = i
    header, words, status = st.Storage(VFlash({}, nor, placed), segments=n).load()
    return header, list(words), status


def read_image(data: bytes, name: str = "journal.bin") -> Journal:
    """The Journal of an image's bytes; JournalError with one line if it is none."""
    size = len(data)
    if size == 0:
        raise JournalError(
            "%s is empty (%s is 1 to %d blocks of %d bytes)" % (name, WHAT, MAX_BLOCKS, BLOCK)
        )
    if size % BLOCK or size > MAX_BLOCKS * BLOCK:
        raise JournalError(
            "%s is %s, not %s (1 to %d blocks of %d bytes)"
            % (name, size_text(size), WHAT, MAX_BLOCKS, BLOCK)
        )
    if not any(data[i : i + 2] in _MAGIC for i in range(0, size, BLOCK)):
        raise JournalError(
            "%s is not %s: no block of it starts as a journal segment" % (name, WHAT)
        )
    header, words, status = load_image(data)
    if header is None:
        if status == st.NONE:
            raise JournalError("%s holds no match (the board had finished or cleared it)" % name)
        raise JournalError(
            "%s is damaged: no segment of it has a whole header (%s)"
            % (name, st.STATUS_NAMES[status])
        )
    why = journal_header_refusal(header)  # the table's own door: the same line
    if why:
        raise JournalError("%s: its header is refused: %s" % (name, why))
    game, players, options = journal_header(header)
    return Journal(game, players, options, bytes(header), words, status, name)


def read_file(path: str | Path) -> Journal:
    """The Journal of the journal image at `path` (a file)."""
    return read_image(read_bytes(path, WHAT, MAX_BLOCKS * BLOCK), str(path))


def set_name(word: int) -> str:
    return "challenge set %05x from a file" % word if word else "the built-in challenge set"


def check_replays(journal: Journal) -> int:
    """Fold every action of `journal` through its game's engine; the number of
    actions.  JournalError names the first one that is malformed or refused.
    A match played with a challenge set other than the one on hand is not
    folded with another set: its actions are checked for malformed words only."""
    match = new_match(journal.game, journal.players, journal.options)
    other_set = journal.set_refusal() is not None
    for number, a in enumerate(journal.actions, 1):
        if malformed(a):
            raise JournalError(MALFORMED % (journal.name, number, a))
        if other_set:
            continue
        code = match.submit(a)
        if code != OK:
            reason = REFUSAL_NAMES[code] if 0 <= code < len(REFUSAL_NAMES) else "code %d" % code
            raise JournalError(REFUSED % (journal.name, number, a, journal.game, reason))
    return len(journal.actions)


def encode(
    header: bytes, words: list[int], segments: int = MAX_BLOCKS, area: int | None = None
) -> bytes:
    """A fresh journal image of a match: its leading table records go with the
    header, as the table writes them (at most 4).  The segments' area number
    is drawn at random (what restore writes to a board: hal/storage.py), or
    is `area`: then the same match always gives the same bytes (the segment
    files made as the storage makes them, "D" "S" version index area and
    0xFF after, which it then finds and uses)."""
    lead = 0
    while lead < min(len(words), 4) and is_table_word(words[lead]):
        lead += 1
    flash = VFlash()
    if area is not None:
        for i in range(segments):
            made = bytearray(b"\xff" * BLOCK)
            made[:8] = b"DS" + bytes((VERSION, i)) + area.to_bytes(4, "little")
            f: Any = flash.open(segment_name(i), "wb")  # a writer: the mode says so
            with f:
                f.write(made)
    s = st.Storage(flash, segments=segments)
    s.new_match(header, tuple(words[:lead]))
    for a in words[lead:]:
        s.append(a)
    return b"".join(bytes(flash.raw.block(flash.placed[segment_name(i)])) for i in range(segments))
