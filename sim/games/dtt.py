"""d-TT on the host: card names, transcript lines and the heuristic bot."""

from dicetable.games.dtt import match as engine
from dicetable.games.dtt import rules as dtt
from dicetable.games.dtt import table
from dicetable.games.dtt.deal import HAND, PLAYED
from dicetable.match.actions import (
    BID,
    DEAL,
    KEEP,
    PLAY,
    REVEAL,
    action,
    kind_of,
    seat_of,
    value_of,
)
from sim import ismcts
from sim.gamehost import GameHost, describe_of, nothing
from sim.games.dtt_deal_view import DealView

# describe(item): 'spades A', 'hearts 3': the table's words (table.item_words),
# as the board logs it.
describe = describe_of(table)


def sort_key(item):
    """By suit in the R10 order, strongest card first."""
    return (dtt.suit(item), -dtt.rank(item))


def describe_cards(items):
    items = sorted(items, key=sort_key)
    return ", ".join(describe(c) for c in items) if items else "nothing"


def describe_trump(trump):
    return "no trump" if trump == dtt.NO_TRUMP else "trump " + table.SUITS[trump]


def hand(match, seat):
    """The cards in `seat`'s hand (also what sim/table_view.py shows)."""
    return [match.hands[seat][i] for i in range(match.hand_n[seat])]


def packet(match, seat):
    """The cards of the packet `seat` picks from in a draft (none outside one)."""
    return [match.packets[seat][i] for i in range(match.packet_n[seat])]


def _signed(n):
    return "%+d" % n if n else "0"


# --- the transcript -----------------------------------------------------------------


def _reveal_lines(match, card):
    lines = []
    if match.faceup_n == 1:
        lines.append(
            "deal %d of %d: seat %d deals" % (len(match.history) + 1, match.deals, match.dealer)
        )
    lines.append("the table turns up %s" % describe(card))
    if match.faceup_n == dtt.FACE_UP:
        faceup = [match.faceup[i] for i in range(match.faceup_n)]
        if match.trump == dtt.NO_TRUMP:
            lines.append("face up: %s -> no trump (no A, 3, K, Q or J)" % describe_cards(faceup))
        else:
            best = faceup[0]
            for c in faceup[1:]:
                if dtt.outranks(c, best):
                    best = c
            lines.append(
                "face up: %s -> %s (from %s)"
                % (describe_cards(faceup), describe_trump(match.trump), describe(best))
            )
        if match.open:
            lines.append(
                "(open play: the players deal and draft the first 6 cards "
                "themselves, passing left; then everyone bids)"
            )
    return lines


def _draft_number(match):
    return 1 if match.phase in (engine.DRAFT_1, engine.BIDDING) else 2


def _keep_lines(match):
    """After the KEEP that completes a pick: what each seat kept, and where the
    packets went; after the last pick, the hands."""
    finished = match.phase not in (engine.DRAFT_1, engine.DRAFT_2)
    if not finished and match.to_act != 7:
        return []  # the pick is not complete yet: keeps stay private until then
    number = _draft_number(match)
    direction = "left" if number == 1 else "right"
    pick = engine.PICKS if finished else match.pick
    kept = ", ".join("seat %d keeps %s" % (s, describe(match.kept[s])) for s in range(3))
    lines = ["draft %d, pick %d: %s; the packets pass %s" % (number, pick, kept, direction)]
    if finished:
        last = ", ".join(
            "seat %d %s" % (s, describe(match.hands[s][match.hand_n[s] - 1])) for s in range(3)
        )
        lines.append("draft %d, pick 6: the last card passed joins the hand: %s" % (number, last))
        for s in range(3):
            lines.append("  seat %d holds %s" % (s, describe_cards(hand(match, s))))
        if match.phase == engine.BIDDING:
            lines.append("everyone bids at once (0-12)")
        else:
            lines.append("seat %d leads trick 1 (%s)" % (match.turn, describe_trump(match.trump)))
    return lines


def _bid_lines(match, seat):
    if match.phase == engine.BIDDING:
        return ["seat %d has bid (hidden until everyone has)" % seat]
    lines = ["bids: " + ", ".join("seat %d %d" % (s, match.bids[s]) for s in range(3))]
    if match.open:
        lines.append(
            "(open play: the players deal and draft the other 6 cards themselves, passing right)"
        )
        lines.append("seat %d leads trick 1 (%s)" % (match.turn, describe_trump(match.trump)))
    return lines


OUTCOMES = {
    0: "nobody made the bid",
    1: "one made the bid",
    2: "two made the bid",
    3: "all three made the bid",
}


def _deal_lines(match):
    scores = match.history[-1]
    made = [dtt.made(match.bids[s], match.taken[s]) for s in range(3)]
    lines = ["deal %d scored: %s" % (len(match.history), OUTCOMES[sum(made)])]
    for s in range(3):
        lines.append(
            "  seat %d bid %d, took %d, %s -> %s, total %d"
            % (
                s,
                match.bids[s],
                match.taken[s],
                "made" if made[s] else "missed",
                _signed(scores[s]),
                match.totals[s],
            )
        )
    if match.over():
        lines.append("the match is over")
    return lines


def narrate(match, a):
    """Transcript lines for action `a`, just accepted by `match`."""
    k = kind_of(a)
    seat = seat_of(a)
    value = value_of(a)
    if k == REVEAL:
        return _reveal_lines(match, value)
    if k == DEAL:
        if match.phase not in (engine.DRAFT_1, engine.DRAFT_2):
            return []
        number = _draft_number(match)
        lines = [
            "draft %d: 6 cards dealt to each seat (kept cards pass %s)"
            % (number, "left" if number == 1 else "right")
        ]
        for s in range(3):
            lines.append("  seat %d is dealt %s" % (s, describe_cards(packet(match, s))))
        return lines
    if k == KEEP:
        return _keep_lines(match)
    if k == BID:
        return _bid_lines(match, seat)
    if k != PLAY:
        return []
    lead = match.trick.count == 1
    lines = ["seat %d %s %s" % (seat, "leads" if lead else "plays", describe(value))]
    if match.trick.count:
        return lines
    # The trick is complete; it was copied to last_trick_* and cleared.
    best = [
        match.last_trick_items[i]
        for i in range(3)
        if match.last_trick_seats[i] == match.last_winner
    ][0]
    line = "trick %d: seat %d wins with %s" % (match.tricks_done, match.last_winner, describe(best))
    if match.tricks_done < dtt.TRICKS:
        line += "; seat %d leads next" % match.last_winner
    lines.append(line)
    if match.tricks_done == dtt.TRICKS:
        lines.extend(_deal_lines(match))
    return lines


# --- the heuristic bot ----------------------------------------------------------------

# Tenths of a trick a card in a 12-card hand is worth, and the tricks a hand
# takes besides (BASE, in tenths): trumps by rank (2 .. A), side suits by rank,
# and every suit in a deal without trump.  A least-squares fit of the tricks a
# seat took to the 12 cards it held, over 9,000 deals of the previous heuristic
# playing itself, rounded (the no-trump row, from few deals, made monotone).  A
# hand is always 12 cards, so a value counts against the others: a low side
# card is worth less than nothing, for it holds a place a trick-taker could.
TRUMP_VALUE = (5, 5, 6, 6, 7, 8, 9, 9, 9, 10)
SIDE_VALUE = (-2, -2, -2, -1, 0, 0, 2, 4, 6, 6)
NO_TRUMP_VALUE = (-1, -1, -1, 0, 0, 2, 4, 6, 8, 9)
BASE = 9
RANKS = dtt.RANKS


def value(card, trump):
    """How much `card` adds to the tricks a hand takes, in tenths."""
    if trump == dtt.NO_TRUMP:
        return NO_TRUMP_VALUE[dtt.rank(card)]
    if dtt.suit(card) == trump:
        return TRUMP_VALUE[dtt.rank(card)]
    return SIDE_VALUE[dtt.rank(card)]


# The bot's tables by trump (a suit or NO_TRUMP), indexed by card: each card's
# value, and its strength as one number (value, then a trump before a side
# card, then rank, then the R10 suit order), so that the bot looks each up once.
VALUES = [[0] * 64 for _ in range(dtt.SUITS + 1)]
STRENGTH = [[0] * 64 for _ in range(dtt.SUITS + 1)]
for _t in range(dtt.SUITS + 1):
    for _c in dtt.deck():
        VALUES[_t][_c] = value(_c, _t)
        STRENGTH[_t][_c] = (
            (((value(_c, _t) + 10) * 2 + (dtt.suit(_c) == _t)) * 16 + dtt.rank(_c)) * 4
            + 3
            - dtt.suit(_c)
        )


def _lead_key(match, seat, trump):
    """How likely a card led now is to win the trick: a trump before a side
    card, then the fewer higher cards of its suit still out (not in the
    seat's hand, not face up, not played: what the seat knows), then rank."""
    where = match.where
    own = HAND + seat
    faceup = match.faceup  # all four are up in play

    def key(c):
        out = 0
        for above in range(c + 1, (c & ~15) + RANKS):  # the higher ranks of its suit
            if where[above] != own and where[above] != PLAYED and above not in faceup:
                out += 1
        return ((c >> 4 == trump) * 16 - out) * 16 + (c & 15)

    return key


def heuristic(match, seat, legal, rng):
    """Draft the strongest cards; bid the tricks the six cards promise doubled
    (value, BASE); then draft toward the bid: each pick the card whose value
    is nearest what the hand still lacks per card to come.  In play, while
    short of the bid win as cheaply as possible, else shed the highest card
    that loses; a lead to win is the card with the fewest higher cards still
    out (trumps first), a lead to lose the one with the most.  In open play
    the engine knows no hand, so the bot bids 4 and picks among the unseen
    cards by strength (a stand-in only)."""
    kind = kind_of(legal[0])
    trump = match.trump
    strength = STRENGTH[trump].__getitem__
    if kind == KEEP:
        cards = [value_of(a) for a in legal]
        if match.phase == engine.DRAFT_2:
            values = VALUES[trump]
            mine = hand(match, seat)
            lacks = 10 * match.bids[seat] - BASE - sum(values[c] for c in mine)
            left = dtt.HAND_SIZE - len(mine)  # this pick, the later ones, the last card
            return action(
                KEEP, seat, min(cards, key=lambda c: (abs(left * values[c] - lacks), -values[c]))
            )
        return action(KEEP, seat, max(cards, key=strength))
    if kind == BID:
        if match.open:  # the table does not know the hand: bid the average share
            return action(BID, seat, dtt.TRICKS // 3)
        values = VALUES[trump]
        worth = sum(values[c] for c in hand(match, seat))
        return action(BID, seat, max(0, min(dtt.MAX_BID, (2 * worth + BASE + 5) // 10)))
    if kind != PLAY:
        return rng.choice(legal)
    cards = [value_of(a) for a in legal]
    want = match.taken[seat] < match.bids[seat]
    t = match.trick
    if t.count == 0:
        key = strength if match.open else _lead_key(match, seat, trump)
        return action(PLAY, seat, (max if want else min)(cards, key=key))
    last = t.count == 2
    best = t.items[match.best]
    winners = [c for c in cards if dtt.beats(c, best, trump)]
    if want:
        if winners:
            return action(PLAY, seat, (min if last else max)(winners, key=strength))
        return action(PLAY, seat, min(cards, key=strength))
    if len(winners) < len(cards):
        losers = [c for c in cards if c not in winners]
        return action(PLAY, seat, max(losers, key=strength))
    return action(PLAY, seat, (max if last else min)(winners, key=strength))


def open_play_journal(journal, players, options):
    """The same match in open play: the deal and both drafts are private, so
    their DEAL and KEEP actions go; the face-up cards, bids and plays stay."""
    return [a for a in journal if kind_of(a) not in (DEAL, KEEP)]


# --- the ISMCTS bot's tuning (sim/ismcts.py), chosen by measurement (docs/bots.md,
# "What was measured"): the smallest budget measured to beat the heuristic.

ISMCTS_PLAYOUTS = 100


# --- what a seat sees: determinizations for the ISMCTS bot (sim/ismcts.py) -------------
#
# A seat sees the face-up cards, its own deals, every packet that reaches it in
# the drafts (so the cards that left a packet between two of its visits, but
# not who kept which), the card that joins its hand after a draft, the bids
# once all three are in, and every card played.  Hidden: the cards dealt to the
# others, their keeps, a bid before all three are in.  A finished deal hides
# who kept what at which pick, but every hand was played face up.

HIDDEN_DECISIONS = (KEEP, BID)  # another seat's keep and bid are not seen
_ALL = 7  # to_act with every seat's bit: a new pick has started


def observe(match, seat, a):
    """Action `a`, just taken, as `seat` sees it (the search tree's key): the
    action, or its kind and seat alone when hidden; a keep that completes a
    pick also shows `seat` its next packet and its hand, the last bid all
    three bids."""
    k = kind_of(a)
    if k in (REVEAL, PLAY):
        return a
    key = a if seat_of(a) == seat else ismcts.masked(a)
    drafting = match.phase in (engine.DRAFT_1, engine.DRAFT_2)
    if k == KEEP and (match.to_act == _ALL or not drafting):
        return (key, tuple(packet(match, seat)), tuple(hand(match, seat)))
    if k == BID and match.phase != engine.BIDDING:
        return (key, tuple(match.bids))
    return key


def only_chance_left(match):
    """Never: a round ends with a play (sim/ismcts.py asks)."""
    return False


def view(match, seat, rng):
    """(prefix, sample): the journal of the finished deals as `seat` can know
    it (one consistent draft drawn with `rng`), and sample(rng), the deal in
    progress with what `seat` cannot see drawn among the drafts consistent
    with what it saw (its deals, every packet it held, every card played and
    who could not follow).  Another seat's keep or bid still unseen (the pick
    or the bids not complete) is left out: the search makes it again, unseen,
    as that seat's decision."""
    journal = match.journal
    if match.open:  # the engine holds no hand: nothing is hidden in it
        return list(journal), nothing
    seen = _packets_seen(match, seat)
    starts = [
        i
        for i, a in enumerate(journal)
        if kind_of(a) == REVEAL and (i == 0 or kind_of(journal[i - 1]) != REVEAL)
    ]
    prefix = []
    for d in range(len(starts) - 1):
        prefix += DealView(journal[starts[d] : starts[d + 1]], seat, seen[d], False).sample(rng)
    if not starts:
        return prefix, nothing
    return prefix, DealView(journal[starts[-1] :], seat, seen[-1], True).sample


def _packets_seen(match, seat):
    """Per deal, what `seat` saw of the drafts: {(draft, pick): its packet
    when the pick began} and {(draft, "last"): the card that joined its hand
    after the last pick}, read from the match as the table showed it then."""
    shadow = engine.new(match.players, match.options)
    seen = []
    before = (engine.REVEALING, 0)
    for a in match.journal:
        shadow.take(a)
        if kind_of(a) == REVEAL and shadow.faceup_n == 1:
            seen.append({})
        now = (shadow.phase, shadow.pick)
        if now[0] in (engine.DRAFT_1, engine.DRAFT_2) and now != before:
            seen[-1][(_draft_of(now[0]), now[1] + 1)] = packet(shadow, seat)
        elif before[0] in (engine.DRAFT_1, engine.DRAFT_2) and now[0] != before[0]:
            seen[-1][(_draft_of(before[0]), "last")] = shadow.hands[seat][shadow.hand_n[seat] - 1]
        before = now
    return seen


def _draft_of(phase):
    return 1 if phase in (engine.DEALING_1, engine.DRAFT_1) else 2


def centre(match):
    """The face-up cards (sim/table_view.py shows them as the centre)."""
    return [match.faceup[i] for i in range(match.faceup_n)]


# The game as the simulator knows it (sim/gamehost.py):
# hands, keeps and bids are hidden; the cards are shuffled.
# The LED legend's example of what the ring shows in a match of this game.
RING_LEGEND = (
    {"faceup_n": 4, "trump": 0},
    "the trump suit",
    "d-TT, once the four cards are up: the ring counts the trump suit, 1 spades, "
    "2 hearts, 3 diamonds, 4 clubs, its last LED in the suit's colour (here spades; "
    "a grey last LED alone: no trump).",
)

HOST = GameHost(
    "dtt",
    hidden_hands=True,
    chance=True,
    narrate=narrate,
    ring_legend=RING_LEGEND,
    describe=describe,
    heuristic=heuristic,
    view=view,
    observe=observe,
    hand=hand,
    centre=centre,
    packet=packet,
    hidden_decisions=HIDDEN_DECISIONS,
    ismcts_playouts=ISMCTS_PLAYOUTS,
    only_chance_left=only_chance_left,
    open_play_journal=open_play_journal,
)
