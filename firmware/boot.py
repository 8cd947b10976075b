"""Runs first at power-up.  Nothing here may fail: the app starts from main.py,
and only when the maintenance button is not held (maintenance.py)."""

import maintenance

if maintenance.requested():
    print("maintenance: the table app is not started")
