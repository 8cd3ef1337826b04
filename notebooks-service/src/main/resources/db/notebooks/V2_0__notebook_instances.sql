-- JupyterHub instances: intent (spec, generation, deleting) and last observed status (the framework's
-- instances table, see common's InstanceStore).
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
-- One JupyterHub per namespace: two simultaneous creates cannot both commit (the API answers 409
-- naming the existing hub; this index is what makes it hold under a race).
CREATE UNIQUE INDEX one_hub_per_namespace ON instances (namespace) WHERE kind = 'jupyterhub';

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

-- OIDC clients access-service has published for our instances (its <name>-oidc Secret exists).
CREATE TABLE oidc_clients (
    namespace   TEXT NOT NULL,
    name        TEXT NOT NULL,
    kind        TEXT NOT NULL,
    secret_name TEXT NOT NULL,
    PRIMARY KEY (namespace, name)
);

-- Grants on our hubs (access.grant-added / -removed): who may sign in (the hub's <name>-access).
CREATE TABLE instance_grants (
    namespace    TEXT NOT NULL,
    name         TEXT NOT NULL,
    kind         TEXT NOT NULL,
    subject_type TEXT NOT NULL CHECK (subject_type IN ('user', 'group')),
    subject      TEXT NOT NULL,
    PRIMARY KEY (namespace, name, subject_type, subject)
);
CREATE TRIGGER instance_grants_changed AFTER INSERT OR DELETE ON instance_grants
    FOR EACH ROW EXECUTE FUNCTION instances_notify();

-- The instances a hub may reference (iceberg-catalog, trino, spark-connect, mlflow), from their
-- lakehouse.instances events: what user servers need to reach them, never a secret value. Deleted
-- instances stay (deleting = true) so a hub can say which variables went stale, and since when.
CREATE TABLE known_instances (
    namespace         TEXT        NOT NULL,
    kind              TEXT        NOT NULL,
    name              TEXT        NOT NULL,
    phase             TEXT,
    deleting          BOOLEAN     NOT NULL,
    internal_endpoint TEXT,
    secret            TEXT,
    changed_at        TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (namespace, kind, name)
);
