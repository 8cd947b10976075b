"""Virtual hardware: the board parts the simulator and the tests drive the drivers with."""
