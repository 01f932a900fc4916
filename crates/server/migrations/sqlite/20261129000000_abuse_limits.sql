-- Budgets that must hold across servers sharing the database.

-- Failed log-ins per key (an account name, or one known device) in the current minute.
CREATE TABLE login_failures (
    key       TEXT PRIMARY KEY,
    window_ms BIGINT NOT NULL,
    count     BIGINT NOT NULL
);

-- Browsers that have signed in to an account (known-device cookies), by the SHA-256 digest
-- of the cookie's secret. A log-in from a known device is not held up by strangers' guesses.
CREATE TABLE known_devices (
    digest     TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    created_ms BIGINT NOT NULL
);
CREATE INDEX known_devices_account ON known_devices (account_id, created_ms);

-- When a challenge's author was last seen with a page of the app open: a challenge for a
-- game played now (not correspondence) lapses once its author has gone.
ALTER TABLE challenges ADD COLUMN seen_ms BIGINT NOT NULL DEFAULT 0;
UPDATE challenges SET seen_ms = created_ms;
