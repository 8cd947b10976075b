"""High card's rules core: a card is its number (1-9); the higher card wins."""

CARDS = 9
HAND = 3


def beats(card, best):
    """True when `card` takes the trick from `best`."""
    return card > best
