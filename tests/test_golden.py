"""Each registered game's golden transcript (every_game.KEYS: the registry's
games and the toy game) is still what the simulator prints."""

import pytest
from every_game import KEYS
from golden_transcripts import ROOT, config, path, transcript


@pytest.mark.parametrize("game", KEYS)
def test_transcript_is_the_reviewed_one(game):
    assert path(game).exists(), (
        "%s has no golden transcript: run `python tests/golden_transcripts.py %s`, "
        "review %s and commit it" % (game, game, path(game).relative_to(ROOT))
    )
    assert transcript(*config(game)) == path(game).read_text(encoding="utf-8")
