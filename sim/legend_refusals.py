"""The LED legend's refusals (sim/legend.py): the error pattern, and every
refusal code in a player's words."""

from dicetable.app import frames as fr
from dicetable.app.refusals import STORAGE_ERROR, UNKNOWN_TAG, refusal_name
from dicetable.match import actions as ac
from sim.legend_entry import SEAT_LEDS, entry, fill_last

REFUSED_AT = "the seat where it happened (the ring for the centre reader)"


def _refusal(code, lit=True):
    return lambda buf, w: fr.refusal(buf, 0, w, code, lit)


# Each refusal code in a player's words (docs/table.md, "Refusals").
WHY = {
    ac.OUT_OF_TURN: "Nothing is asked of this seat now.",
    ac.WRONG_PHASE: "The seat is asked for something else (e.g. OK when a scan is awaited).",
    ac.UNKNOWN_ITEM: "The item is not one of this match's.",
    ac.NOT_IN_HAND: "The item is not in your hand (or not yours to pass, keep or take).",
    ac.ILLEGAL_PLAY: "A rule forbids it (follow, keep a die, pick limit, pass before picking...).",
    ac.OUT_OF_RANGE: "− below the lowest or + above the highest value allowed.",
    ac.ALREADY_PLACED: "The item is already dealt, played or taken (or you just put it down).",
    ac.MATCH_OVER: "The match is over.",
    ac.NOTHING_TO_UNDO: "There is nothing to undo.",
    ac.MALFORMED: "Never at a seat: only a damaged journal's record, named in the log at power-up.",
    UNKNOWN_TAG: "The tag is not registered (see provisioning).",
    UNKNOWN_TAG + 1: "The tag is registered for a different game.",
    UNKNOWN_TAG + 2: "Two tags are on the reader at once.",
    UNKNOWN_TAG + 3: "The reader stopped answering (its last LED then stays red until it "
    "answers again).",
    STORAGE_ERROR: "The action could not be written, so it was not taken.",
}


def refusal_codes():
    """Every refusal code the table can show: the engine's (1 up), then the table's own."""
    return list(range(1, len(ac.REFUSAL_NAMES))) + list(range(UNKNOWN_TAG, STORAGE_ERROR + 1))


def refusals():
    e = "refusals"
    return [
        entry(
            "refusal-engine",
            e,
            "refused by the match",
            "The match refused what you did and nothing changed: red LEDs count why "
            "(here 5, illegal play), blinking for 2 s.",
            REFUSED_AT,
            SEAT_LEDS,
            _refusal(ac.ILLEGAL_PLAY),
            _refusal(ac.ILLEGAL_PLAY, False),
        ),
        entry(
            "refusal-table",
            e,
            "refused by the table",
            "The table could not use the tag at all: purple LEDs count why (here 1, "
            "unknown tag), blinking for 2 s.",
            REFUSED_AT,
            SEAT_LEDS,
            _refusal(UNKNOWN_TAG),
            _refusal(UNKNOWN_TAG, False),
        ),
        entry(
            "reader-fault",
            e,
            "reader not answering",
            "The seat's last LED stays red, over whatever the seat shows, until its "
            "reader answers again.",
            "the seat whose reader failed (or the ring)",
            SEAT_LEDS,
            fill_last(fr.IDLE, fr.ERROR),
        ),
    ]


def codes():
    out = []
    for code in refusal_codes():
        table = code >= fr.APP_CODES
        count = code - fr.APP_CODES if table else code
        why = WHY.get(code, refusal_name(code))
        if count > SEAT_LEDS:
            why += " (Shown as a number: more than the segment's %d LEDs.)" % SEAT_LEDS
        out.append(
            entry(
                "refusal-%d" % code,
                "codes",
                "%d %s: %s" % (count, "purple" if table else "red", refusal_name(code)),
                why,
                REFUSED_AT,
                SEAT_LEDS,
                _refusal(code),
                _refusal(code, False),
            )
        )
    return out
