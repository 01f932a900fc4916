-- Only games where the computer is to move need the sweep index; keeping every move of every
-- other game out of it saves an index update per move.
DROP INDEX games_computer;
CREATE INDEX games_computer ON games (updated_ms) WHERE computer_to_move = 1;
