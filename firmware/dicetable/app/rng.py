"""The table's own random source: a small seeded PRNG (xorshift32).

Portable and integer-only, so a seed gives the same draws on the board and in
the simulator.  The board seeds it from a source that differs per power-up
(main.py); tests give a fixed seed.  Every draw the table makes is journalled
as an action, so a match never depends on replaying the generator.
"""

_MASK = 0xFFFFFFFF


class Rng:
    """xorshift32 (Marsaglia's 13/17/5): `randrange(n)` like random.randrange."""

    def __init__(self, seed=1):
        self.seed(seed)

    def seed(self, seed):
        """Restart the sequence; seed 0 (which xorshift cannot leave) is replaced."""
        self.state = (seed & _MASK) or 0x9E3779B9

    def next32(self):
        """The next 32-bit value."""
        x = self.state
        x ^= (x << 13) & _MASK
        x ^= x >> 17
        x ^= (x << 5) & _MASK
        self.state = x
        return x

    def randrange(self, n):
        """A uniform int in 0..n-1 (rejection sampling: no modulo bias)."""
        if n <= 0:
            raise ValueError("empty range")
        limit = 0x100000000 - (0x100000000 % n)
        while True:
            x = self.next32()
            if x < limit:
                return x % n
