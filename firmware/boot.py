"""Runs first at power-up and after every soft reset.  Nothing here may fail:
the app starts from main.py, and only when the maintenance button is not held
(maintenance.py).  A watchdog still running after a soft reset (the app had
started it) is fed while the board is at the REPL, until the app takes it back."""

import maintenance

maintenance.keep_watchdog_fed()
if maintenance.requested():
    print("maintenance: the table app is not started")
