-- boardlab game store. The same statements run on SQLite and PostgreSQL.

-- One row per game: what never changes, plus a summary of the current state that is updated
-- in the same transaction as each appended event (for listings and the computer-move sweep).
CREATE TABLE games (
    id               TEXT PRIMARY KEY,
    game             TEXT NOT NULL,
    options          TEXT NOT NULL,
    seed             BIGINT NOT NULL,
    position         TEXT,
    first_player     TEXT NOT NULL,
    second_player    TEXT NOT NULL,
    first_token      TEXT,
    second_token     TEXT,
    same_screen      INTEGER NOT NULL,
    created_ms       BIGINT NOT NULL,
    version          BIGINT NOT NULL,
    status           TEXT NOT NULL,
    result           TEXT,
    termination      TEXT,
    move_count       BIGINT NOT NULL,
    to_move          TEXT,
    computer_to_move INTEGER NOT NULL,
    updated_ms       BIGINT NOT NULL
);

CREATE INDEX games_created ON games (created_ms);
CREATE INDEX games_computer ON games (computer_to_move, updated_ms);

-- The append-only log: event seq of a game is its version after the event. The primary key
-- makes a second writer of the same version fail, which is how concurrent servers agree.
CREATE TABLE events (
    game_id TEXT NOT NULL REFERENCES games (id),
    seq     BIGINT NOT NULL,
    seat    TEXT NOT NULL,
    action  TEXT NOT NULL,
    data    TEXT NOT NULL,
    at_ms   BIGINT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
