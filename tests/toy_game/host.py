"""High card in the simulator: transcript lines, a bot, what a seat sees."""

from dicetable.match.actions import DEAL, PLAY, action, kind_of, seat_of, value_of
from sim import ismcts
from sim.gamehost import GameHost


def describe(item):
    return "card %d" % item


def narrate(match, a):
    lines = []
    if kind_of(a) == PLAY:
        lines.append("seat %d plays card %d" % (seat_of(a), value_of(a)))
        if match.trick.count == 0:
            lines.append("seat %d wins the trick" % match.last_winner)
    return lines


def heuristic(match, seat, legal, rng):
    """The highest card it may take or play."""
    return max(legal, key=value_of)


# --- what a seat sees, for the search bot: its own cards and every card
# played; the other seats' cards in hand are drawn among the rest.


def observe(match, seat, a):
    """`a` as `seat` sees it: another seat's card scanned is hidden."""
    return ismcts.masked(a) if kind_of(a) == DEAL and seat_of(a) != seat else a


def view(match, seat, rng):
    """(prefix, sample): the match is one round, so no prefix; the sample is
    the journal with every other seat's scans drawn again, its played cards
    first (they were in its hand) and the rest from the cards `seat` has not
    seen."""
    journal = list(match.journal)
    played = [[] for _ in range(match.players)]
    seen = set()
    for a in journal:
        if kind_of(a) == PLAY:
            played[seat_of(a)].append(value_of(a))
            seen.add(value_of(a))
        elif seat_of(a) == seat:
            seen.add(value_of(a))

    def sample(rng):
        unseen = [c for c in range(1, 10) if c not in seen]
        rng.shuffle(unseen)
        hands = [list(cards) for cards in played]
        out = []
        for a in journal:
            s = seat_of(a)
            if kind_of(a) == DEAL and s != seat:
                card = hands[s].pop(0) if hands[s] else unseen.pop()
                a = action(DEAL, s, card)
            out.append(a)
        return out

    return [], sample


# The game as the simulator knows it (sim/gamehost.py): the cards in hand are
# hidden, and the table draws nothing (the players choose their cards).
HOST = GameHost(
    "highcard",
    hidden_hands=True,
    chance=False,
    narrate=narrate,
    describe=describe,
    heuristic=heuristic,
    view=view,
    observe=observe,
    hidden_decisions=(),
)
