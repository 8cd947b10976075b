"""Host tools for the maker: talk to the board over USB with mpremote.

board.py (the connection), flash.py, backup.py (backup and restore),
registry_csv.py (the tag registry as CSV: its one reader), journal_image.py
(the board's journal: its one reader on the host), replay.py, monitor.py,
errors.py (the one-line refusals and safe host writes); the CLI is
`python -m host_tools` (__main__.py).
"""
