"""Each game's side in the simulator, one module a game: sim/games/<key>.py
(transcript lines, the bots' parts, what the table's views show), ending with
its declaration HOST (sim/gamehost.py's GameHost).  Never flashed: the board's
code lives in firmware/dicetable/games/<key>/ and never imports sim."""
