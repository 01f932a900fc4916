-- The database itself refuses an event that would leave a gap in a game's log: event N is
-- stored only after event N - 1 is committed. (A second event with a number already taken is
-- refused by the primary key, which the writer answers with "another server was first".)
CREATE FUNCTION boardlab_events_follow_the_last() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.seq < 1 OR NEW.seq > 1 + COALESCE(
        (SELECT MAX(seq) FROM events WHERE game_id = NEW.game_id), 0) THEN
        RAISE EXCEPTION 'event % of game % does not follow the last one', NEW.seq, NEW.game_id
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER events_follow_the_last BEFORE INSERT ON events
FOR EACH ROW EXECUTE FUNCTION boardlab_events_follow_the_last();
