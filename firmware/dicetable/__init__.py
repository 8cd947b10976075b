"""The dice table's portable package: rules core, match engine and table app.

Everything below this folder runs unchanged on the board (MicroPython) and on
a desktop (CPython).  See ../../docs/rules.md for the rules it implements.
"""
