"""Every refusal the table gives, with its exact log line and LED pattern, for
the rows of docs/refusals.md ("At the table") that tests/test_app.py does not
already pin: the menu's, provisioning's, a storage that fails, and the lines
a power-up writes when the journal or the registry cannot be used as it is."""

import pytest
from test_app import (
    DTWWW,
    NOKOSU,
    PURPLE,
    RED,
    WALZER,
    Config,
    Driver,
    count_leds,
    frozen,
    half_played,
    reboot,
    refused,
)

from dicetable.app import games
from dicetable.app.events import CENTRE, LONG, MINUS, OK, PLUS, TAG_PLACED
from dicetable.app.registry import pack
from dicetable.app.rng import Rng
from dicetable.app.table import Table
from dicetable.games.nokosu import rules as nk
from dicetable.match.actions import OUT_OF_RANGE, OUT_OF_TURN, UNKNOWN_ITEM, WRONG_PHASE


def failing(d, method):
    """Make d.storage.<method> raise OSError from now on."""

    def fail(*args):
        raise OSError(28, "no space")

    setattr(d.storage, method, fail)


# --- the menu ------------------------------------------------------------------------------


def test_menu_a_seat_other_than_the_menu_seat_pressing_minus_or_plus_is_out_of_turn():
    d = Driver()
    d.table.boot()
    d.press(2, PLUS)
    assert d.lines[-1] == "seat 2 refused: out of turn"
    assert d.leds(2) == count_leds(OUT_OF_TURN, RED)


def test_menu_ok_with_too_few_seats_and_a_length_past_the_longest_are_out_of_range():
    d = Driver()
    t = d.table
    t.boot()
    d.press(0, OK)  # DTwww, seats field
    d.press(0, OK)  # one seat: DTwww needs 2
    assert d.lines[-1] == "seat 0 refused: out of range"
    assert d.leds(0) == count_leds(OUT_OF_RANGE, RED)
    d.press(1, OK)
    while t.menu.field != 5:  # the length field
        d.press(0, OK)
    for _ in range(6):
        d.press(0, PLUS)
    d.advance(3000)
    d.press(0, PLUS)  # 7: DTwww's longest is 6 games
    assert d.lines[-1] == "seat 0 refused: out of range"
    assert t.menu.values[5] == 6 and d.leds(0) == count_leds(OUT_OF_RANGE, RED)


# --- provisioning ----------------------------------------------------------------------------


def provisioning():
    d = Driver(registry=[])
    d.table.boot()
    d.press(0, MINUS)
    d.press(0, OK)
    assert d.table.mode == "provision"
    return d


def test_provisioning_a_button_before_a_tag_is_wrong_phase():
    d = provisioning()
    d.press(3, PLUS)
    assert d.lines[-1] == "seat 3 refused: wrong phase (put a tag on a reader first)"
    assert d.leds(3) == count_leds(WRONG_PHASE, RED)


def test_provisioning_stepping_past_the_last_item_is_out_of_range():
    d = provisioning()
    d.scan(1, b"\x04\x01\x02\x03")
    d.press(1, OK)  # DTwww: item 1 of 42
    d.press(1, MINUS)
    assert d.lines[-1] == "seat 1 refused: out of range (no more items)"
    assert d.leds(1) == count_leds(OUT_OF_RANGE, RED)


def test_provisioning_a_registry_that_cannot_be_saved_is_a_storage_error():
    d = provisioning()
    d.scan(1, b"\x04\x01\x02\x03")
    d.press(1, OK)
    failing(d, "save_registry")
    d.press(1, OK)
    assert d.lines[-1] == (
        "seat 1 refused: storage error (registry not saved: %r)" % (OSError(28, "no space"),)
    )
    assert d.leds(1) == count_leds(5, PURPLE)
    assert len(d.table.registry) == 0  # the old registry kept


# --- at a seat during a match ----------------------------------------------------------------


def test_a_card_of_the_colour_removed_for_three_players_is_an_unknown_item():
    d = Driver()
    d.start(NOKOSU, [0, 1, 2])
    m = d.match
    assert m.removed != nk.NO_COLOUR  # the table chose it at the start
    card = [i for i in games.all_items(NOKOSU) if not nk.is_die(i) and nk.colour(i) == m.removed][0]
    refused(
        d,
        0,
        UNKNOWN_ITEM,
        "unknown item (%s)" % games.item_name(NOKOSU, card),
        lambda: d.scan_item(0, card),
    )
    assert d.lines[-1] == "seat 0 refused: unknown item (%s)" % games.item_name(NOKOSU, card)


def test_a_seat_asked_for_a_scan_pressing_minus_is_wrong_phase():
    d = Driver()
    d.start(WALZER, [0, 1, 2])
    refused(d, 1, WRONG_PHASE, "wrong phase", lambda: d.press(1, MINUS))
    assert d.lines[-1] == "seat 1 refused: wrong phase"


def test_a_tag_after_the_match_is_over_is_ignored_and_said():
    d = Driver(seed=2)
    d.start(2, [0, 1], length=1)  # Dicefull, one challenge
    d.until(lambda: d.table.mode == "over")
    before = frozen(d)
    d.scan(1, b"\x04\x99\x99\x99")
    assert frozen(d) == before
    assert "seat 1: tag 04999999 ignored in the over" in d.lines


def test_an_action_that_cannot_be_written_is_a_storage_error_and_not_taken():
    d = Driver()
    d.start(WALZER, [0, 1, 2])
    a = d.player_actions()[0]
    failing(d, "append")
    before = frozen(d)
    d.do(a)
    assert frozen(d) == before
    assert d.lines[-2] == "storage: %r" % (OSError(28, "no space"),)
    assert d.lines[-1].endswith("refused: storage error (action not taken)")
    seat = d.lines[-1].split(" refused")[0]
    assert seat.startswith("seat ") or seat == "centre"


def test_a_table_draw_that_cannot_be_written_is_a_storage_error_at_the_centre():
    d = Driver()
    d.start(DTWWW, [0, 1], rolls=1)  # the table rolls each die scanned
    a = [x for x in d.player_actions() if x >> 20 == 1][0]
    real = d.storage.append
    calls = []

    def second_fails(w):
        calls.append(w)
        if len(calls) == 2:
            raise OSError(5, "flash")
        real(w)

    d.storage.append = second_fails
    d.do(a)  # the scan is written, its roll is not
    assert "centre refused: storage error (table draw not taken)" in d.lines
    assert d.leds(CENTRE)[:5] == [PURPLE] * 5


def test_an_undo_that_cannot_be_written_is_a_storage_error():
    d = Driver()
    d.start(WALZER, [0, 1, 2])
    d.step()
    failing(d, "undo")
    before = frozen(d)
    d.press(0, MINUS + LONG)
    assert frozen(d) == before
    assert d.lines[-1] == "seat 0 refused: storage error (undo not taken)"
    assert d.leds(0) == count_leds(5, PURPLE)


def test_a_new_match_that_cannot_be_written_is_a_storage_error_in_the_menu():
    d = Driver()
    d.table.boot()
    failing(d, "new_match")
    d.press(1, OK)
    d.press(0, OK)
    d.press(0, OK)
    while d.table.mode == "menu" and "refused" not in d.lines[-1]:
        d.press(0, OK)
    assert d.table.mode == "menu"
    assert d.lines[-1] == "seat 0 refused: storage error (%r)" % (OSError(28, "no space"),)
    assert d.leds(0) == count_leds(5, PURPLE)


def test_an_event_from_a_reader_the_table_does_not_have_is_ignored_and_said():
    d = Driver()
    d.table.boot()
    d.table.reader_event(TAG_PLACED, 9, b"\x04\x01\x02\x03")
    assert d.lines[-1] == "event from unknown reader 9 ignored"


# --- power-up ----------------------------------------------------------------------------------


def test_boot_a_corrupt_journal_with_no_header_offers_a_new_match():
    d = Driver()
    d.storage.status = 3  # nothing readable at all
    t, lines = reboot(d)
    assert t.mode == "menu"
    assert "journal corrupt: no match to resume; choose a new match" in lines


def test_boot_a_journal_corrupt_after_its_header_resumes_what_it_read():
    d = half_played()
    d.storage.status = 3
    d.storage.found = [(5, 3, 20, 0)]  # LOST: damage in segment 3, 20 records from it on
    t, lines = reboot(d)
    assert t.mode == "play"
    n = len(t.match.journal)
    assert (
        "journal corrupt at segment 3: resumed at action %d of %d, 20 lost" % (n, n + 20) in lines
    )


FOUND_LINES = [
    # what the journal found (hal/journal.py), whether the match resumes, the line said
    ((6, 1, 0, 0), True, "journal: segment 1's header copy damaged, the other read"),
    ((1, 2, 0, 0), True, "journal: segment 2's header damaged in both copies, mended"),
    (
        (2, 4, 0, 0),
        True,
        "journal: segment 4's header unreadable, its records read by their checks",
    ),
    ((3, 5, 0, 0), True, "journal: segment 5 unreadable, not part of the match resumed"),
    ((4, 6, 3, 2), True, "journal: segment 6 is of format version 3, not the match's"),
]


@pytest.mark.parametrize(("found", "resumes", "line"), FOUND_LINES)
def test_boot_says_each_damage_the_journal_found(found, resumes, line):
    d = half_played()
    d.storage.found = [found]
    t, lines = reboot(d)
    assert (t.mode == "play") == resumes
    assert line in lines


@pytest.mark.parametrize(
    ("found", "line"),
    [
        (
            (3, 0, 0, 0),
            "journal corrupt: segment 0 unreadable, no match to resume; choose a new match",
        ),
        (
            (4, 0, 255, 2),
            "journal not resumed: written in format version 255, this firmware reads version 2;"
            " choose a new match",
        ),
    ],
)
def test_boot_with_no_match_but_a_damaged_segment_says_it(found, line):
    d = Driver()
    d.storage.status = 3
    d.storage.found = [found]
    t, lines = reboot(d)
    assert t.mode == "menu" and lines[-2] == line


def test_boot_the_torn_last_record_is_dropped_and_said():
    d = half_played(game=WALZER, seats=(0, 1, 2))
    d.storage.words = d.storage.words[:-1]
    d.storage.status = 2
    t, lines = reboot(d)
    assert t.mode == "play" and "journal: torn last record dropped" in lines


def test_boot_a_match_for_more_seats_than_the_table_has_offers_a_new_match():
    d = half_played(game=NOKOSU, seats=(0, 1, 2, 3, 4))

    class Small(Config):
        seats = [0, 1, 2]

    lines = []
    t = Table(Small, d.storage, Rng(1), lambda line: lines.append(line.text()))
    t.boot()
    assert t.mode == "menu"
    assert "journal needs 5 seats, the table has 3: choose a new match" in lines
    assert d.storage.header is not None  # kept until a new match starts


def test_boot_invalid_registry_entries_are_skipped_and_counted():
    d = half_played()
    records = bytearray(pack(d.storage.registry[:3]))
    size = len(records) // 3
    bad = bytearray(records[:size])
    bad[11] = 9  # game 9: no such game
    records += records[:size] + bad  # and a UID given twice
    d.storage.load_registry = lambda: (records, 0)
    t, lines = reboot(d)
    assert "registry: 2 invalid entries skipped" in lines
    assert "registry: 3 tags" in lines


def test_boot_a_journal_that_cannot_be_rewritten_is_said():
    d = half_played()
    d.storage.words.insert(10, 0xD00000)  # a malformed record: the journal is rewritten
    failing(d, "new_match")
    t, lines = reboot(d)
    assert "journal rewrite failed: %r" % (OSError(28, "no space"),) in lines
    assert t.mode == "play"


def test_a_journal_that_cannot_be_cleared_is_said():
    d = Driver()
    d.start(WALZER, [0, 1, 2])
    failing(d, "clear")
    d.press(0, OK + LONG)
    d.press(0, OK)  # abandon
    assert "journal not cleared: %r" % (OSError(28, "no space"),) in d.lines
    assert d.table.mode == "menu"


def test_boot_a_registry_that_cannot_be_read_carries_on():
    d = half_played()
    failing(d, "load_registry")
    t, lines = reboot(d)
    assert any(line.startswith("registry corrupt: carrying on with 0 tags") for line in lines)
    assert t.mode == "play"
