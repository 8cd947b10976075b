"""Virtual hardware: the board parts the simulator and the tests drive the drivers with.

The flash is not here: flashmodel/ (the host tools read journals with it too).
"""
