-- The gap check of 20261126000000 ran one query per stored event. The same rule, checked once
-- per statement over the events it stored: each event's predecessor (event N - 1) must be in
-- the log, committed or stored by the same statement. The log of each game has no gap, so
-- this is the rule "event N follows the last one" (a number already taken is refused by the
-- primary key). The writer stores a whole batch of events in one statement, so the check is
-- one query per batch.
DROP TRIGGER events_follow_the_last ON events;
DROP FUNCTION boardlab_events_follow_the_last();

CREATE FUNCTION boardlab_events_follow_on() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    bad RECORD;
BEGIN
    -- A scalar subquery, not NOT EXISTS: the planner knows nothing of the size of `stored`
    -- and would turn an anti-join into a scan of the whole log; this way each stored event
    -- costs one lookup in the primary key.
    SELECT n.game_id, n.seq INTO bad FROM stored n
    WHERE n.seq < 1 OR (n.seq > 1 AND (
        SELECT e.seq FROM events e WHERE e.game_id = n.game_id AND e.seq = n.seq - 1) IS NULL)
    LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'event % of game % does not follow the last one', bad.seq, bad.game_id
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER events_follow_on AFTER INSERT ON events
REFERENCING NEW TABLE AS stored
FOR EACH STATEMENT EXECUTE FUNCTION boardlab_events_follow_on();
