"""Layer 1: the board drivers, the only code that touches machine, SPI, pins, LEDs and files."""
