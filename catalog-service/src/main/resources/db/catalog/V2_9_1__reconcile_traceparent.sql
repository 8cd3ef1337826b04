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
