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


def draw(seed, pos, n):
    """What Rng((seed << 12) ^ (pos * 0x9E3779B1) ^ 0x5BD1E995), stepped four
    times, gives as randrange(n): the table's draw for a match's seed (20
    bits) at journal position pos.  Worked in 16-bit halves so that no value
    leaves MicroPython's small ints (31 bits): a 32-bit one would be a long
    int, allocated anew by every operation.  n < 8192."""
    low = pos * 0x79B1
    hi = ((seed >> 4) ^ (pos * 0x9E37 + (low >> 16)) ^ 0x5BD1) & 0xFFFF
    lo = (((seed & 0xF) << 12) ^ low ^ 0xE995) & 0xFFFF
    if hi == 0 and lo == 0:
        hi = 0x9E37
        lo = 0x79B9
    rest = ((0x10000 % n) * (0x10000 % n)) % n  # 2**32 % n
    k = 0
    while True:
        # x ^= x << 13; x ^= x >> 17; x ^= x << 5 (Rng.next32), on (hi, lo)
        hi ^= ((hi << 13) | (lo >> 3)) & 0xFFFF
        lo ^= (lo << 13) & 0xFFFF
        lo ^= hi >> 1
        hi ^= ((hi << 5) | (lo >> 11)) & 0xFFFF
        lo ^= (lo << 5) & 0xFFFF
        k += 1
        # The fifth value is randrange's first try; rejected while x >= 2**32 - rest.
        if k > 4 and hi + ((lo + rest) >> 16) < 0x10000:
            return ((hi % n) * 0x10000 + lo) % n
