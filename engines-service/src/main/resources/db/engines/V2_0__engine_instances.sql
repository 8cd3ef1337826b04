-- Engine instances (trino, spark-connect, mlflow, nifi): intent (spec, generation, deleting) and last
-- observed status. One name per namespace across the four kinds: their objects share a name space.
CREATE TABLE instances (
    namespace          TEXT        NOT NULL,
    name               TEXT        NOT NULL,
    kind               TEXT        NOT NULL,
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
CREATE INDEX instances_by_kind ON instances (namespace, kind, name);
CREATE INDEX instances_by_catalog ON instances (namespace, (spec ->> 'catalog'));

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

-- The iceberg-catalog instances of every namespace, from catalog-service's lakehouse.instances events:
-- what a new engine may refer to, and the storage it inherits by default.
CREATE TABLE catalogs (
    namespace       TEXT    NOT NULL,
    name            TEXT    NOT NULL,
    catalog_name    TEXT    NOT NULL,
    bucket          TEXT    NOT NULL,
    endpoint        TEXT    NOT NULL,
    region          TEXT    NOT NULL,
    path_style      BOOLEAN NOT NULL,
    storage_secret  TEXT    NOT NULL,
    phase           TEXT    NOT NULL,
    deleting        BOOLEAN NOT NULL DEFAULT false,
    PRIMARY KEY (namespace, name)
);

-- OIDC clients access-service has published for our instances (its <name>-oidc Secret exists).
CREATE TABLE oidc_clients (
    namespace   TEXT NOT NULL,
    name        TEXT NOT NULL,
    kind        TEXT NOT NULL,
    secret_name TEXT NOT NULL,
    PRIMARY KEY (namespace, name)
);
