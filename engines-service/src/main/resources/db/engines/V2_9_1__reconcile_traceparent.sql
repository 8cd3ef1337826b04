-- The reconcile wake-up carries the trace of the change (common TraceContext.SETTING, set in the same
-- transaction when tracing is on): payload "namespace/name traceparent", so the pass it causes continues
-- the API request's or the event's trace. Without it the payload stays "namespace/name".
CREATE OR REPLACE FUNCTION instances_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('reconcile_' || TG_TABLE_SCHEMA,
                      COALESCE(NEW.namespace, OLD.namespace) || '/' || COALESCE(NEW.name, OLD.name)
                      || COALESCE(' ' || NULLIF(current_setting('lakehouse.traceparent', true), ''), ''));
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION user_groups_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    granted RECORD;
BEGIN
    FOR granted IN SELECT DISTINCT namespace, name FROM instance_grants
                   WHERE subject_type = 'group' AND subject = COALESCE(NEW.group_path, OLD.group_path) LOOP
        PERFORM pg_notify('reconcile_' || TG_TABLE_SCHEMA, granted.namespace || '/' || granted.name
                          || COALESCE(' ' || NULLIF(current_setting('lakehouse.traceparent', true), ''), ''));
    END LOOP;
    RETURN NULL;
END $$;
