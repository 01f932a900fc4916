-- One stored review per game (the latest): the game version it reviewed, the bot that
-- evaluated it, and the review itself as JSON. Opening a review again reads it from here.
CREATE TABLE reviews (
    game_id    TEXT PRIMARY KEY REFERENCES games (id),
    version    BIGINT NOT NULL,
    bot        TEXT NOT NULL,
    review     TEXT NOT NULL,
    created_ms BIGINT NOT NULL
);
