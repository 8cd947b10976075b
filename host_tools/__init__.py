"""Host tools for the maker: talk to the board over USB with mpremote.

board.py (the connection), flash.py, backup.py; the CLI is `python -m host_tools`.
"""
