-- Iceberg catalog instances: intent (spec, generation, deleting) and last observed status.
CREATE TABLE instances (
    namespace          TEXT        NOT NULL,
    name               TEXT        NOT NULL,
    uid                UUID        NOT NULL UNIQUE,
    spec               JSONB       NOT NULL,
    -- S3 keys typed in a form, AES-GCM sealed: never in clear.
    sealed_credentials JSONB,
    generation         BIGINT      NOT NULL DEFAULT 1,
    phase              TEXT        NOT NULL,
    conditions         JSONB       NOT NULL DEFAULT '[]',
    deleting           BOOLEAN     NOT NULL DEFAULT false,
    created_by         TEXT        NOT NULL,
    created_at         TIMESTAMPTZ NOT NULL,
    updated_at         TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (namespace, name)
);

-- Wakes the reconciler (on any replica) at commit time when intent changes; status writes do not.
CREATE FUNCTION instances_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('reconcile_' || TG_TABLE_SCHEMA,
                      COALESCE(NEW.namespace, OLD.namespace) || '/' || COALESCE(NEW.name, OLD.name));
    RETURN NULL;
END $$;
CREATE TRIGGER instances_created AFTER INSERT ON instances
    FOR EACH ROW EXECUTE FUNCTION instances_notify();
CREATE TRIGGER instances_intent_changed AFTER UPDATE ON instances
    FOR EACH ROW WHEN (OLD.generation IS DISTINCT FROM NEW.generation OR OLD.deleting IS DISTINCT FROM NEW.deleting)
    EXECUTE FUNCTION instances_notify();

-- Instances of other services that use a catalog (from lakehouse.instances events).
CREATE TABLE catalog_dependents (
    namespace TEXT NOT NULL,
    catalog   TEXT NOT NULL,
    kind      TEXT NOT NULL,
    name      TEXT NOT NULL,
    PRIMARY KEY (namespace, kind, name)
);
CREATE INDEX catalog_dependents_by_catalog ON catalog_dependents (namespace, catalog);
