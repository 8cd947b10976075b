"""The web page of the table (python -m sim.web, make table): docs/web.md.

The real firmware (the table app and the board's drivers) runs on the
simulator's virtual hardware (sim/hw/rig.py) in CPython; the page shows its
LED frames, buttons and readers, and a loopback-only server carries clicks to
it and its state back (server.py, session.py, view.py, static/).
"""
