"""A virtual microsecond clock for a bench of virtual parts.

Nothing in the virtual hardware sleeps or reads the host's time: the SPI bus
advances this clock by the time each byte takes on the wire, and the chips
work out from it where their timers, transmissions and replies are.  A test
can also advance it by hand.  Integer microseconds only; portable.
"""


class Clock:
    """Virtual time in microseconds, advanced only by the parts and the test."""

    def __init__(self, start_us=0):
        self.now_us = start_us

    def advance(self, us):
        """Let `us` microseconds pass."""
        self.now_us += us

    def ticks_us(self):
        """The current time in microseconds (like time.ticks_us, without wrap-around)."""
        return self.now_us

    def ticks_ms(self):
        """The current time in milliseconds."""
        return self.now_us // 1000
