-- Every replica answers forward-auth from memory, but one replica commits each change of an
-- instance or its grants: the commit wakes all of them (channel grants_<schema>, payload: the
-- instance's namespace/kind/name to reload). Identical payloads of one transaction arrive once.
CREATE FUNCTION grants_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    changed RECORD;
BEGIN
    IF TG_OP = 'DELETE' THEN
        changed := OLD;
    ELSE
        changed := NEW;
    END IF;
    PERFORM pg_notify('grants_' || TG_TABLE_SCHEMA, changed.namespace || '/' || changed.kind || '/' || changed.name);
    RETURN NULL;
END $$;
CREATE TRIGGER instances_changed AFTER INSERT OR UPDATE OR DELETE ON instances
    FOR EACH ROW EXECUTE FUNCTION grants_notify();
CREATE TRIGGER grants_changed AFTER INSERT OR UPDATE OR DELETE ON grants
    FOR EACH ROW EXECUTE FUNCTION grants_notify();
