-- Clocks: a game's time control (M+S real time, Nd correspondence; none: untimed), and when
-- the side to move runs out of time (kept with each event, for the sweep that flags games
-- nobody is watching, also after a restart).
ALTER TABLE games ADD COLUMN clock TEXT;
ALTER TABLE games ADD COLUMN deadline_ms BIGINT;
CREATE INDEX games_deadline ON games (deadline_ms) WHERE deadline_ms IS NOT NULL;
-- A challenge's time control.
ALTER TABLE challenges ADD COLUMN clock TEXT;
