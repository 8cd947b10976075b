"""Seltsam-Walzer on the host: card names, transcript lines and the heuristic bot."""

from dicetable.games.walzer import match as engine
from dicetable.games.walzer import rules as walzer
from dicetable.games.walzer import table
from dicetable.match.actions import DEAL, PASS_ITEM, PLAY, action, kind_of, seat_of, value_of
from dicetable.rules.trick import Trick


def describe(item):
    """'red 7', 'blue 11', 'X2': the table's words (table.item_name), as the board logs it."""
    return table.item_name(item, True)


def sort_key(item):
    return (walzer.colour(item), walzer.number(item), walzer.copy(item))


def describe_cards(items):
    items = sorted(items, key=sort_key)
    return ", ".join(describe(c) for c in items) if items else "nothing"


def _round_header(match):
    return "round %d of %d: seat %d deals" % (match.round + 1, match.rounds, match.dealer)


def _hand_lines(match):
    return ["  seat %d holds %s" % (s, describe_cards(match.hand(s))) for s in range(match.players)]


def _piles_before_last_trick(match):
    """Each seat's won pile of the round just scored.  The engine empties the
    piles when the next round starts, so fold the journal again up to the
    last play and add the last trick."""
    prior = engine.new(match.players, match.options)
    prior.replay(match.journal[:-1])
    piles = [prior.won_pile(s) for s in range(match.players)]
    piles[match.last_winner].extend(match.last_trick_items[i] for i in range(match.players))
    return piles


def _colour_scores(piles):
    """Per seat, the score of each colour (the rules core's colour_score)."""
    out = [[0, 0, 0] for _ in piles]
    for col in range(walzer.X):
        counts = [sum(1 for c in pile if walzer.colour(c) == col) for pile in piles]
        sums = [sum(walzer.number(c) for c in pile if walzer.colour(c) == col) for pile in piles]
        least = walzer.fewest(counts)
        for s in range(len(piles)):
            out[s][col] = walzer.colour_score(col, counts[s], sums[s], least)
    return out


def _round_lines(match):
    """The round just scored: what each seat took, its score and the totals."""
    scores = match.history[-1]
    piles = _piles_before_last_trick(match)
    parts = _colour_scores(piles)
    lines = [
        "round %d scored (fewest of a colour: sum of numbers; others: count;"
        " red x1, blue x2, green x3):" % len(match.history)
    ]
    for s in range(match.players):
        lines.append("  seat %d took %s" % (s, describe_cards(piles[s])))
        lines.append(
            "    red %d + blue %d + green %d = %d points, total %d"
            % (parts[s][0], parts[s][1], parts[s][2], scores[s], match.totals[s])
        )
    if match.open and not match.over():
        lines.append(_round_header(match) + " (open play: hands not scanned)")
        lines.append("seat %d (the dealer) leads trick 1" % match.dealer)
    return lines


def narrate(match, a):
    """Transcript lines for action `a`, just accepted by `match`."""
    k = kind_of(a)
    seat = seat_of(a)
    card = value_of(a)
    lines = []
    if k == DEAL:
        if sum(match.hand_n) == 1:
            lines.append(_round_header(match))
        if match.phase == engine.PASSING:
            lines.append("the deal is complete, %d cards each:" % match.hand_size)
            lines.extend(_hand_lines(match))
        return lines
    if k == PASS_ITEM:
        lines.append(
            "seat %d passes %s to seat %d" % (seat, describe(card), (seat + 1) % match.players)
        )
        if match.phase == engine.PLAYING:
            lines.append("every seat has passed and takes the 2 cards from its right:")
            lines.extend(_hand_lines(match))
            lines.append("seat %d (the dealer) leads trick 1" % match.dealer)
        return lines
    if k != PLAY:
        return lines
    if match.open and len(match.journal) == 1:
        lines.append(_round_header(match) + " (open play: hands not scanned)")
    lines.append(
        "seat %d %s %s" % (seat, "leads" if match.trick.count == 1 else "plays", describe(card))
    )
    if match.trick.count:
        return lines
    # The trick is complete; the engine copied it to last_trick_* and cleared it.
    won = [match.last_trick_items[i] for i in range(match.players)]
    best = [
        match.last_trick_items[i]
        for i in range(match.players)
        if match.last_trick_seats[i] == match.last_winner
    ][0]
    line = "trick %d: seat %d wins with %s, taking %s" % (
        match.last_trick_no,
        match.last_winner,
        describe(best),
        describe_cards(won),
    )
    if match.last_trick_no < match.hand_size:
        line += "; seat %d leads next" % match.last_winner
    lines.append(line)
    if match.last_trick_no == match.hand_size:
        lines.extend(_round_lines(match))
    return lines


# --- the heuristic bot --------------------------------------------------------------

WORTH_TAKING = 12  # numbers in the trick (times the multipliers) worth winning it for


def _wins(match, card):
    """True if `card`, added to the trick as it stands, would win it so far."""
    t = match.trick
    trial = Trick(match.players)
    for i in range(t.count):
        trial.add(t.seats[i], t.items[i])
    trial.add(match.turn, card)
    return walzer.resolve(trial) == t.count


def _worth(items):
    return sum(walzer.number(c) * walzer.multiplier(walzer.colour(c)) for c in items)


def _cheapness(card):
    # Low numbers first; an X last, as it is the surest way to win a trick.
    return (
        walzer.is_x(card),
        walzer.number(card) * walzer.multiplier(walzer.colour(card)),
        sort_key(card),
    )


def heuristic(match, seat, legal, rng):
    """Pass the two cheapest coloured cards of the longest colour; lead the
    cheapest card; follow by winning cheaply a trick worth taking, else by
    dropping the cheapest card that loses."""
    kinds = {kind_of(a) for a in legal}
    if PASS_ITEM in kinds:
        hand = [value_of(a) for a in legal]
        counts = [sum(1 for c in hand if walzer.colour(c) == col) for col in range(4)]
        return min(
            legal,
            key=lambda a: (
                walzer.is_x(value_of(a)),
                -counts[walzer.colour(value_of(a))],
                walzer.number(value_of(a)),
                sort_key(value_of(a)),
            ),
        )
    if PLAY not in kinds:
        return rng.choice(legal)
    cards = [value_of(a) for a in legal if kind_of(a) == PLAY]
    if match.trick.count == 0:
        return _play(seat, min(cards, key=_cheapness))
    in_trick = [match.trick.items[i] for i in range(match.trick.count)]
    winners = [c for c in cards if _wins(match, c)]
    losers = [c for c in cards if c not in winners]
    if winners and (_worth(in_trick) >= WORTH_TAKING or not losers):
        return _play(seat, min(winners, key=_cheapness))
    return _play(seat, min(losers or cards, key=_cheapness))


def _play(seat, card):
    return action(PLAY, seat, card)


def open_play_journal(journal, players, options):
    """The same match in open play: no deal and no pass, only the plays."""
    return [a for a in journal if kind_of(a) == PLAY]
