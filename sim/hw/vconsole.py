"""The board's USB serial console, virtual: the transmit side of MicroPython's
rp2 USB CDC as hal/console.py meets it, and a host at the other end.

    vc = VConsole(clock=None, host=None)
    vc.write(buf, off, n)   what sys.stdout.buffer.write(buf, off, n) does
    vc.ipoll(0)             what select.poll().ipoll(0) yields, registered
                            for POLLOUT on sys.stdout.buffer
    vc.data                 the bytes the host has read; lines() splits them
    vc.read()               the bytes the host has read since the last read()
    vc.writes, vc.polls     the calls the board made
    vc.waited_us            virtual time spent waiting inside write()

The model, as MicroPython 1.27 to 1.29 has it (shared/tinyusb/mp_usbd_cdc.c,
TinyUSB's cdc_device.c; docs/firmware.md quotes them):

- the transmit FIFO holds FIFO bytes (CFG_TUD_CDC_TX_BUFSIZE, 256); the USB
  controller holds one packet of it in flight, which the host takes:
  tud_cdc_n_write_flush moves min(level, PACKET) bytes (CFG_TUD_CDC_EP_BUFSIZE,
  64) there whenever it is free;
- while the host holds the port open (DTR high, `host.connected`), a write
  (mp_usbd_cdc_tx_strn) puts what fits and flushes, then, while the rest
  does not fit, waits a millisecond at a time (the virtual clock advances)
  for the host to take packets, until TIMEOUT_MS pass without progress;
- with the port closed the FIFO overwrites its oldest bytes, nothing
  waits, and nothing reaches the host;
- POLLOUT (mp_usbd_cdc_poll_interfaces): the port closed, or a byte of room.

Host(connected, every_us): the program at the other end takes a packet
every `every_us` of virtual time while it reads (None: as fast as they
come); stop() and resume() it, or close() and open() the port.  Without a
clock the host reads everything at once and nothing ever waits.  Portable.
"""

FIFO = 256
PACKET = 64
TIMEOUT_MS = 500  # MICROPY_HW_USB_CDC_TX_TIMEOUT
POLLOUT = 4


class Host:
    """What the host does with the port; see the module docstring."""

    def __init__(self, connected=True, every_us=None):
        self.connected = connected
        self.every_us = every_us
        self.reading = True

    def stop(self):
        self.reading = False

    def resume(self, every_us=None):
        self.reading = True
        self.every_us = every_us

    def close(self):
        self.connected = False

    def open(self):
        self.connected = True


class VConsole:
    """The CDC transmit path and its host; see the module docstring."""

    def __init__(self, clock=None, host=None):
        self.clock = clock
        self.host = Host() if host is None else host
        self.fifo = bytearray()
        self.ep = bytearray()  # the packet in flight
        self._data = bytearray()
        self.writes = 0
        self.polls = 0
        self.waited_us = 0
        self._next_us = 0  # when the host takes its next packet
        self._read = 0
        self._ready = ((self, POLLOUT),)

    def _now(self):
        return 0 if self.clock is None else self.clock.now_us

    def _flush(self):
        if not self.ep and self.fifo:
            k = min(PACKET, len(self.fifo))
            self.ep.extend(self.fifo[:k])
            del self.fifo[:k]

    def drain(self):
        """The host takes the packets it has had time for, up to now."""
        host = self.host
        now = self._now()
        if not (host.connected and host.reading):
            self._next_us = now
            return
        every = None if self.clock is None else host.every_us
        while self.ep and (every is None or self._next_us <= now):
            self._data.extend(self.ep)
            self.ep = bytearray()
            self._flush()
            if every is not None:
                self._next_us += every
        if not self.ep and self._next_us < now:
            self._next_us = now

    def write(self, buf, off=0, n=-1):
        end = len(buf) if n < 0 else off + n
        self.writes += 1
        i = off
        idle_us = 0  # waited since the last byte went in
        while i < end:
            self.drain()
            k = end - i
            if self.host.connected and k > FIFO - len(self.fifo):
                k = FIFO - len(self.fifo)
            self.fifo.extend(bytes(buf[i : i + k]))
            if len(self.fifo) > FIFO:  # the port closed: the oldest bytes go
                del self.fifo[: len(self.fifo) - FIFO]
            self._flush()
            i += k
            if i >= end:
                break
            if k:
                idle_us = 0
                continue
            if self.clock is None or idle_us >= TIMEOUT_MS * 1000:
                break
            self.clock.advance(1000)
            idle_us += 1000
            self.waited_us += 1000
        self.drain()
        return i - off

    def ipoll(self, timeout=-1):
        self.polls += 1
        self.drain()
        if not self.host.connected or len(self.fifo) < FIFO:
            return iter(self._ready)
        return iter(())

    @property
    def data(self):
        """Every byte the host has read."""
        self.drain()
        return self._data

    def read(self):
        """The bytes the host has read since the last read()."""
        data = self.data
        out = bytes(data[self._read :])
        self._read = len(data)
        return out

    def lines(self):
        """The complete lines the host has read, as text, padding and line
        ends removed."""
        return [line.decode().rstrip() for line in bytes(self.data).split(b"\n")[:-1]]
