"""The power-up's lines for what the journal's load found (storage.found:
hal/journal.py, "DAMAGED HEADERS"), one a damage (docs/refusals.md, "At
power-up").  app/resume.py imports it only when there is something to say,
and the table forgets it with resume.
"""

# What the load found, as hal/journal.py numbers it.
MENDED = 1
BY_RECORDS = 2
UNREADABLE = 3
FOREIGN = 4
LOST = 5
COPY = 6


def say_found(t, found, none):
    """Say what the load found (`none`: it found no match): False if that
    ends the power-up at the menu, else the LOST entry or None."""
    lost = None
    for f in found:
        if f[0] == FOREIGN:
            if none:
                t.say(
                    "journal not resumed: written in format version %d, this firmware"
                    " reads version %d; choose a new match" % (f[2], f[3])
                )
                return False
            t.say("journal: segment %d is of format version %d, not the match's" % (f[1], f[2]))
        elif f[0] == UNREADABLE:
            if none:
                t.say(
                    "journal corrupt: segment %d unreadable, no match to resume;"
                    " choose a new match" % f[1]
                )
                return False
            t.say("journal: segment %d unreadable, not part of the match resumed" % f[1])
        elif f[0] == COPY:
            t.say("journal: segment %d's header copy damaged, the other read" % f[1])
        elif f[0] == MENDED:
            t.say("journal: segment %d's header damaged in both copies, mended" % f[1])
        elif f[0] == BY_RECORDS:
            t.say(
                "journal: segment %d's header unreadable, its records read by their checks" % f[1]
            )
        elif f[0] == LOST:
            lost = f
    return lost
