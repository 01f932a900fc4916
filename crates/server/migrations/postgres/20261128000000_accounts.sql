-- Accounts (optional: anonymous play needs none), their log-in sessions, and which account
-- holds each seat of a game.
CREATE TABLE accounts (
    id         TEXT PRIMARY KEY,
    -- The name as its owner wrote it, and in lower case: names differing only in case are
    -- the same name.
    name       TEXT NOT NULL,
    name_key   TEXT NOT NULL UNIQUE,
    -- An Argon2id hash in the PHC string format; the password itself is never stored.
    password   TEXT NOT NULL,
    created_ms BIGINT NOT NULL
);

-- A session is known by the SHA-256 digest of its cookie's secret, never the secret itself.
CREATE TABLE sessions (
    id         TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    created_ms BIGINT NOT NULL
);
CREATE INDEX sessions_account ON sessions (account_id);

-- The account holding each seat now (its claim is an event of the game's log; this is the
-- summary kept beside it, like the game's status).
ALTER TABLE games ADD COLUMN first_account TEXT;
ALTER TABLE games ADD COLUMN second_account TEXT;
CREATE INDEX games_first_account ON games (first_account, updated_ms);
CREATE INDEX games_second_account ON games (second_account, updated_ms);
-- The winning seat of a finished game, for results seen from one player's side.
ALTER TABLE games ADD COLUMN winner TEXT;
