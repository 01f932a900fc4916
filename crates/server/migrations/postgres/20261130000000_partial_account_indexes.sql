-- A player's games are found by the account holding a seat: games no account holds need no
-- entry in these indexes, and so no index changes at each of their moves.
DROP INDEX games_first_account;
DROP INDEX games_second_account;
CREATE INDEX games_first_account ON games (first_account, updated_ms)
    WHERE first_account IS NOT NULL;
CREATE INDEX games_second_account ON games (second_account, updated_ms)
    WHERE second_account IS NOT NULL;
