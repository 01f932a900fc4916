-- Rated games, the lobby's open challenges, and Glicko-2 ratings per account and game.

-- Whether a game counts for ratings (made from a rated challenge between two accounts).
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
CREATE INDEX games_rated_finished ON games (updated_ms) WHERE rated = 1 AND status = 'finished';

-- An open challenge: a game its author will play, waiting for anyone (or one named player) to
-- accept it. Accepting deletes it and starts the game, so it can be accepted once.
CREATE TABLE challenges (
    id          TEXT PRIMARY KEY,
    account_id  TEXT NOT NULL REFERENCES accounts (id),
    game        TEXT NOT NULL,
    -- Non-default options as a JSON object, as in games.
    options     TEXT NOT NULL,
    -- The author's seat: first, second or random.
    seat        TEXT NOT NULL,
    rated       INTEGER NOT NULL,
    -- For a challenge to one player: their account.
    opponent_id TEXT REFERENCES accounts (id),
    created_ms  BIGINT NOT NULL
);
CREATE INDEX challenges_created ON challenges (created_ms);

-- The current rating of an account in a game.
CREATE TABLE ratings (
    account_id TEXT NOT NULL REFERENCES accounts (id),
    game       TEXT NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games      BIGINT NOT NULL,
    updated_ms BIGINT NOT NULL,
    PRIMARY KEY (account_id, game)
);
CREATE INDEX ratings_game ON ratings (game, rating);

-- Each rating after each rated game, for the history chart.
CREATE TABLE rating_history (
    account_id TEXT NOT NULL REFERENCES accounts (id),
    game       TEXT NOT NULL,
    game_id    TEXT NOT NULL REFERENCES games (id),
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    at_ms      BIGINT NOT NULL,
    PRIMARY KEY (account_id, game_id)
);

-- The rated games whose result has been counted: a game's row here is written in the same
-- transaction as the ratings it changed, and its key lets that happen once, whichever server
-- sees the game end first.
CREATE TABLE rated_games (
    game_id TEXT PRIMARY KEY REFERENCES games (id),
    at_ms   BIGINT NOT NULL
);
