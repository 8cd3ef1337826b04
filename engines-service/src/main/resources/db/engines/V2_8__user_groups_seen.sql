-- The groups access-service last saw in each user's platform token (access.user-groups-seen on
-- lakehouse.access, consumer group engines-service-user-groups): Trino reads no groups from tokens
-- (trinodb/trino#15669), so its group file lists, for each granted group, the users seen in it.
-- seen_at (the token's iat) orders sightings: an older event (a replay, a late one) never overwrites a newer one.
CREATE TABLE user_sightings (
    username TEXT        PRIMARY KEY,
    seen_at  TIMESTAMPTZ NOT NULL
);
CREATE TABLE user_groups_seen (
    username   TEXT NOT NULL REFERENCES user_sightings (username) ON DELETE CASCADE,
    group_path TEXT NOT NULL,
    PRIMARY KEY (username, group_path)
);
CREATE INDEX user_groups_seen_by_group ON user_groups_seen (group_path);

-- A user joining or leaving a group wakes, at commit, the instances on which that group holds a grant
-- (reconcile_<schema>, like instance_grants), so their group files follow within seconds.
CREATE FUNCTION user_groups_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    granted RECORD;
BEGIN
    FOR granted IN SELECT DISTINCT namespace, name FROM instance_grants
                   WHERE subject_type = 'group' AND subject = COALESCE(NEW.group_path, OLD.group_path) LOOP
        PERFORM pg_notify('reconcile_' || TG_TABLE_SCHEMA, granted.namespace || '/' || granted.name);
    END LOOP;
    RETURN NULL;
END $$;
CREATE TRIGGER user_groups_changed AFTER INSERT OR DELETE ON user_groups_seen
    FOR EACH ROW EXECUTE FUNCTION user_groups_notify();
