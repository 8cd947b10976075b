"""The state a page's session publishes: its JSON text under a version that
a change bumps, and the long polls waiting on it (sim/web/server.py's
/state).  Session (a table run here) and MirrorSession (a board's mirror)
are both one, so the server serves either the same way."""

import threading


class Published:
    def __init__(self):
        self.lock = threading.RLock()  # a state being built, against the session thread's changes
        self.changed = threading.Condition()
        self.version = 0
        self.body = ""
        self.closed = False
        self._thread = None  # the session's own thread, once start() ran

    def put(self, body):
        """Publish `body` (the state as JSON text): a change bumps the version
        and wakes the listeners; the same text again changes nothing."""
        if body == self.body:
            return
        with self.changed:
            self.body = body
            self.version += 1
            self.changed.notify_all()

    def snapshot(self):
        """(version, state JSON text)."""
        with self.changed:
            return self.version, '{"version":%d,%s' % (self.version, self.body[1:])

    def wait_change(self, version, timeout):
        """Wait until the version is not `version` (or the session closes, or
        `timeout` seconds pass); True when it changed."""
        with self.changed:
            self.changed.wait_for(lambda: self.version != version or self.closed, timeout)
            return self.version != version

    def close(self):
        """Wake every listener and end the session's thread (at most 2 s)."""
        with self.changed:
            self.closed = True
            self.changed.notify_all()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(2)
