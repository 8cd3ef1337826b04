-- Shared by every service, created in the service's own schema (flyway default-schema).

-- Transactional outbox: rows are written in the same transaction as the state change.
CREATE TABLE outbox (
    seq          BIGSERIAL PRIMARY KEY,
    event_id     UUID        NOT NULL UNIQUE,
    topic        TEXT        NOT NULL,
    subject      TEXT        NOT NULL,
    type         TEXT        NOT NULL,
    source       TEXT        NOT NULL,
    event_time   TIMESTAMPTZ NOT NULL,
    data         JSONB       NOT NULL,
    published_at TIMESTAMPTZ
);
CREATE INDEX outbox_unpublished ON outbox (seq) WHERE published_at IS NULL;

-- Wakes the relay at commit time (NOTIFY is delivered only when the transaction commits).
CREATE FUNCTION outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('outbox_' || TG_TABLE_SCHEMA, '');
    RETURN NULL;
END $$;
CREATE TRIGGER outbox_inserted AFTER INSERT ON outbox
    FOR EACH STATEMENT EXECUTE FUNCTION outbox_notify();

-- Inbox: ids of consumed events, written in the same transaction as the projection change.
CREATE TABLE inbox (
    event_id     UUID PRIMARY KEY,
    consumer     TEXT        NOT NULL,
    processed_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Projection of lakehouse.access memberships: who holds which role in which namespace.
CREATE TABLE member_roles (
    namespace    TEXT NOT NULL,
    subject_type TEXT NOT NULL CHECK (subject_type IN ('user', 'group')),
    subject      TEXT NOT NULL,
    role         TEXT NOT NULL CHECK (role IN ('viewer', 'operator', 'admin')),
    updated_at   TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (namespace, subject_type, subject)
);
