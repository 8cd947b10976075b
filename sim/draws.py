"""The draw the simulator's chance and bots make: draw(n), a uniform int in
[0, n), from a seeded random.Random.

drawer(rng) is rng.randrange(n) without its argument checks: the same values
in the same order (random.choice draws with it too), so a seed plays the same
match through either.  With randrange a playout took 6 % (Nokosu) to 22 %
(d-TT) longer, and the search's rollouts and DTwww's score-dice throws draw
hundreds of thousands of times a decision.
"""


def drawer(rng):
    """draw(n) of `rng` (a random.Random): rng.randrange(n) for n >= 1."""
    return rng._randbelow  # pyright: ignore[reportAttributeAccessIssue]
