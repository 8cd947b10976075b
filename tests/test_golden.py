"""Each game's golden transcript is still what the simulator prints."""

import pytest
from golden_transcripts import MATCHES, path, transcript


@pytest.mark.parametrize("config", MATCHES, ids=[m[0] for m in MATCHES])
def test_transcript_is_the_reviewed_one(config):
    assert transcript(*config) == path(config[0]).read_text(encoding="utf-8")
