"""Table app (layer 2): turns reader and button events into match actions, and
match state into LED frames.  No rule logic here: the match engine decides."""
