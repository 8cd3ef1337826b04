-- What several replicas of one service need from their shared schema, and a relay that a bad row
-- cannot stop.

-- Every replica keeps the role projection in memory, but only one replica's consumer writes a
-- change: the commit wakes all of them (channel roles_<schema>, payload: the namespace to reload).
CREATE FUNCTION member_roles_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('roles_' || TG_TABLE_SCHEMA, OLD.namespace);
    ELSE
        PERFORM pg_notify('roles_' || TG_TABLE_SCHEMA, NEW.namespace);
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER member_roles_changed AFTER INSERT OR UPDATE OR DELETE ON member_roles
    FOR EACH ROW EXECUTE FUNCTION member_roles_notify();

-- The reconcile leader's lease (common LeaderLock): renewed every few seconds, taken over once
-- expired, so a leader whose node died is replaced within the lease and not when TCP notices.
-- epoch grows with every new term: the fencing token a stale leader can no longer renew.
CREATE TABLE leader_leases (
    name       TEXT PRIMARY KEY,
    holder     TEXT        NOT NULL,
    epoch      BIGINT      NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL
);

-- An outbox row Kafka can never take (unknown type, larger than the broker accepts) is parked with
-- the reason instead of blocking every later event; readiness reports the count (degraded).
ALTER TABLE outbox ADD COLUMN parked_at TIMESTAMPTZ, ADD COLUMN parked_reason TEXT;
DROP INDEX outbox_unpublished;
CREATE INDEX outbox_unpublished ON outbox (seq) WHERE published_at IS NULL AND parked_at IS NULL;
CREATE INDEX outbox_parked ON outbox (seq) WHERE parked_at IS NOT NULL;

-- Write-ahead audit (common AuditFilter): a mutating call's record is committed here before the
-- call runs and replaced by the audit event with its outcome after; one left behind by a replica
-- that stopped in between is published with an unknown outcome. An audit log loses nothing.
CREATE TABLE audit_intents (
    id         UUID PRIMARY KEY,
    subject    TEXT        NOT NULL,
    data       JSONB       NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX audit_intents_age ON audit_intents (created_at);
