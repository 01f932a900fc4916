-- The database itself refuses an event that would leave a gap in a game's log: event N is
-- stored only after event N - 1. (A second event with a number already taken is refused by
-- the primary key, which the writer answers with "another server was first".)
CREATE TRIGGER events_follow_the_last BEFORE INSERT ON events
WHEN NEW.seq < 1
    OR NEW.seq > 1 + COALESCE((SELECT MAX(seq) FROM events WHERE game_id = NEW.game_id), 0)
BEGIN
    SELECT RAISE(ABORT, 'event out of order: a game''s events must follow one another');
END;
