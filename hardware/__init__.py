"""The table's hardware documents, and the code that generates or checks them
against the firmware's pin map (firmware/pins.py) and build (table_config.py)."""
