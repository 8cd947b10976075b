"""Start the table (boot.py has already checked the maintenance button)."""

import maintenance

if not maintenance.requested():
    from hal.board import run

    run()
