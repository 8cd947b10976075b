"""Reader chip selects as single stores to an output port.

A ChipSelect says where to store what to select one reader, and where to
store what to release it: the MFRC522 driver does `port[at] = bits` around
every SPI transfer, one store each way.  On the board the port is
machine.mem32 and the stores go to the RP2040's SIO GPIO_OUT_SET, _CLR or
_XOR registers, which change several output pins in one write: the 74HC138's
three address lines (pins.CS_ADDRESS) move together instead of in three pin
calls.  A reader wired to its own chip-select pin gets a PinPort instead, and
the virtual rig has a virtual SIO (sim.hw.vspi.VSIO) taking the same stores.
"""

# RP2040 SIO: a write sets, clears or toggles the GPIO outputs whose bits are 1.
GPIO_OUT_SET = 0xD0000014
GPIO_OUT_CLR = 0xD0000018
GPIO_OUT_XOR = 0xD000001C


class ChipSelect:
    """Select: port[select_at] = select_bits; release: port[release_at] = release_bits."""

    def __init__(self, port, select_at, select_bits, release_at, release_bits):
        self.port = port
        self.select_at = select_at
        self.select_bits = select_bits
        self.release_at = release_at
        self.release_bits = release_bits

    def select(self):
        """Select this reader (one store)."""
        self.port[self.select_at] = self.select_bits

    def release(self):
        """Release this reader (one store)."""
        self.port[self.release_at] = self.release_bits


def _gpio_mask(address_gpios, value):
    mask = 0
    for bit in range(len(address_gpios)):
        if (value >> bit) & 1:
            mask |= 1 << address_gpios[bit]
    return mask


def decoder_selects(port, address_gpios, lines, idle, fitted):
    """Chip selects through a 3-to-8 decoder whose address inputs are the GPIOs
    `address_gpios` (A0 first): reader r is selected by address lines[r], and
    `idle` selects nobody.  `fitted`: the reader indices that have a reader;
    the list has None elsewhere.  With idle 0 (pins.CS_IDLE) select sets the
    reader's address bits and release clears all three, so a release always
    ends on the idle address; otherwise both toggle the bits that differ."""
    every = _gpio_mask(address_gpios, 7)
    selects = []
    for r in range(len(lines)):
        if r not in fitted:
            selects.append(None)
        elif idle == 0:
            selects.append(
                ChipSelect(
                    port, GPIO_OUT_SET, _gpio_mask(address_gpios, lines[r]), GPIO_OUT_CLR, every
                )
            )
        else:
            flip = _gpio_mask(address_gpios, lines[r] ^ idle)
            selects.append(ChipSelect(port, GPIO_OUT_XOR, flip, GPIO_OUT_XOR, flip))
    return selects


class PinPort:
    """A port over chip-select pins wired one per reader: port[k] = level drives pin k."""

    def __init__(self):
        self.pins = []

    def __setitem__(self, k, level):
        self.pins[k](level)


def pin_select(port, pin):
    """A ChipSelect for `pin` (low selects), added to `port` (a PinPort)."""
    k = len(port.pins)
    port.pins.append(pin)
    pin(1)
    return ChipSelect(port, k, 0, k, 1)
