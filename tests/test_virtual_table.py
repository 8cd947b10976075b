"""The firmware's app loop on virtual hardware: the real drivers talk to a
register-level MFRC522 model over a virtual SPI bus, read virtual buttons,
drive a recording LED strip through the current limiter and keep the
journal on virtual flash.  Whole matches are played with tags and buttons
only, and the LEDs are read from the frames the strip received."""

import random

import pytest
from match_helpers import snapshot

from dicetable.app import frames as fr
from dicetable.app.events import CENTRE, OK
from dicetable.app.registry import pack
from dicetable.match.actions import OUT_OF_TURN, PLAY, REFUSAL_NAMES, kind_of
from sim import mpy_wasm
from sim.hw import hands, scripted
from sim.hw.rig import VirtualTable
from sim.hw.vtag import VTag

DTWWW, NOKOSU = 0, 4
WIDTH = 8


def table_with_registry(seats=(0, 1, 2, 3, 4)):
    vt = VirtualTable(seats=seats)
    vt.storage.save_registry(pack(hands.full_registry()))
    vt.boot()
    return vt


def start(vt, game, seats):
    hands.choose_in_menu(vt, vt.table, game, seats)  # every option at its default
    assert vt.table.mode == "play"


def check_trick(vt):
    """Right after a trick: the winner's segment green, the next leader's blue."""
    t, m = vt.table, vt.table.match
    w = t.phys[m.last_winner]
    turn = [s for s in range(m.players) if m.waiting() == 1 << s]
    leader = t.phys[turn[0]] if turn else -1
    if w == leader:
        assert vt.leds(w) == [fr.WINNER] * 4 + [fr.LEADER] * 4
    else:
        assert vt.leds(w) == [fr.WINNER] * WIDTH
        if leader >= 0:
            assert vt.leds(leader) == [fr.LEADER] * WIDTH


def play_to_the_end(vt, seed):
    rng = random.Random(seed)
    t = vt.table
    tricks = 0
    while t.mode == "play":
        while t.trick_show is not None:  # a trick's result shows for a while
            vt.wait(100)
        if t.score_show is not None:  # round scores stay until a button
            vt.press(t.lead, OK)
        acts = hands.player_actions(t)
        a = rng.choice(acts)
        n = len(t.match.journal)
        hands.make(vt, t, a)
        assert t.match.journal[n] == a, vt.lines[-3:]
        if kind_of(a) == PLAY and t.match.trick.count == 0:
            tricks += 1
            check_trick(vt)
        assert vt.leds(CENTRE) == t.leds(CENTRE)  # what the app drew reached the strip
    return tricks


def check_final(vt):
    t, m = vt.table, vt.table.match
    vt.wait(3000)
    assert t.mode == "over" and m.over()
    assert vt.leds(CENTRE) == [fr.PLACES[0]] * len(vt.leds(CENTRE))
    for p, place in enumerate(m.standings()):
        assert vt.leds(t.phys[p]) == t.leds(t.phys[p])
        assert "%d. seat %d: %d" % (place, t.phys[p], m.totals[p]) in t.text
    assert vt.pixels.last_scale == 256  # within the current budget: not dimmed
    header, actions, status = vt.storage.load()
    assert status == 0 and actions[2:] == m.journal  # everything accepted is on flash


@pytest.mark.slow
def test_a_full_dtwww_match_played_with_tags_and_buttons_on_virtual_hardware():
    vt = table_with_registry()
    start(vt, DTWWW, (0, 2, 3))
    t = vt.table
    for s in (0, 2, 3):
        assert vt.leds(s) == [fr.DIM_CYAN] * WIDTH  # the deal: scan your dice
    assert vt.leds(1) == [fr.OFF] * WIDTH  # seat 1 does not play
    assert play_to_the_end(vt, 5) == 27
    check_final(vt)
    assert t.match.players == 3


@pytest.mark.slow
def test_a_full_nokosu_match_played_with_tags_and_buttons_on_virtual_hardware():
    vt = table_with_registry()
    start(vt, NOKOSU, (1, 2, 4))
    assert play_to_the_end(vt, 3) == 3 * 12  # R12: 12 tricks a round for 3
    check_final(vt)


def test_refusals_that_come_from_the_hardware_change_nothing():
    vt = table_with_registry()
    start(vt, DTWWW, (0, 2, 3))
    t = vt.table
    before = snapshot(t.match)
    # A tag nobody registered.
    vt.place(0, b"\x04\xde\xad\x01")
    assert any("unknown tag" in line for line in vt.lines[-3:])
    assert fr.TAG_ERROR in vt.leds(0)
    vt.remove(0)
    # Two tags on one reader at once: neither is read.
    vt.wait(3000)
    vt.chips[2].place(VTag(b"\x04\x00\x01\x23"))
    vt.chips[2].place(VTag(b"\x04\x00\x01\x24"))
    vt.wait(200)
    assert any("two tags" in line for line in vt.lines[-3:])
    assert fr.TAG_ERROR in vt.leds(2)
    vt.chips[2].remove(vt.chips[2]._tags[0][0])
    vt.chips[2].remove(vt.chips[2]._tags[0][0])
    # A reader that stops answering: reported at its seat, the others work on.
    vt.wait(3000)
    vt.chips[3].silence()
    vt.wait(200)
    assert any("reader fault" in line for line in vt.lines)
    assert snapshot(t.match) == before
    vt.chips[3].revive()
    vt.wait(500)
    # A seat that is not waited on: out of turn, shown at that seat.
    vt.wait(3000)
    a = hands.player_actions(t)[0]
    hands.make(vt, t, a)  # a legal deal goes through
    after = snapshot(t.match)
    seat_1_item = hands.uid_for(DTWWW, t.match.all_items()[-1])
    vt.scan(1, seat_1_item)  # seat 1 does not play
    assert snapshot(t.match) == after
    assert (
        vt.lines[-1]
        == "seat 1 refused: %s (seat 1 is not in this match)" % (REFUSAL_NAMES[OUT_OF_TURN])
    )
    assert vt.leds(1)[0] == fr.ERROR  # one red LED: refusal code 1


@pytest.mark.slow
def test_the_firmware_runs_a_scripted_match_on_micropython_as_on_cpython(capsys):
    scripted.main()
    on_cpython = capsys.readouterr().out
    steps = 0
    script = scripted.Script(hands.full_registry())
    while not script.done:
        script.step()
        steps += 1
    # One action a part: the test build collects garbage only between parts.
    on_micropython = mpy_wasm.run(
        mpy_wasm.parts(
            ["from sim.hw import scripted\nS = scripted.Script(%r)" % (hands.full_registry(),)]
            + ["S.step()"] * steps
            + ["scripted.report(S.vt)"]
        )
    )
    assert "mode over" in on_cpython
    assert on_micropython == on_cpython
