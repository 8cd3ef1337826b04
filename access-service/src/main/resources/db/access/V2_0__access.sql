-- access-service's own state (the shared outbox, inbox and member_roles come from db/common).

-- Namespace memberships as set through the API: the source of the access.member-* events.
CREATE TABLE members (
    namespace    TEXT NOT NULL,
    subject_type TEXT NOT NULL CHECK (subject_type IN ('user', 'group')),
    subject      TEXT NOT NULL,
    role         TEXT NOT NULL CHECK (role IN ('viewer', 'operator', 'admin')),
    updated_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (namespace, subject_type, subject)
);

-- Projection of lakehouse.instances: the instances that exist (grants need one).
CREATE TABLE instances (
    namespace  TEXT NOT NULL,
    kind       TEXT NOT NULL,
    name       TEXT NOT NULL,
    created_by TEXT,
    PRIMARY KEY (namespace, kind, name)
);

-- Who may open an instance; removed with it.
CREATE TABLE grants (
    namespace    TEXT NOT NULL,
    kind         TEXT NOT NULL,
    name         TEXT NOT NULL,
    subject_type TEXT NOT NULL CHECK (subject_type IN ('user', 'group')),
    subject      TEXT NOT NULL,
    granted_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (namespace, kind, name, subject_type, subject),
    FOREIGN KEY (namespace, kind, name) REFERENCES instances ON DELETE CASCADE
);

-- Append-only audit log from lakehouse.audit and the lifecycle topics; event_id deduplicates.
CREATE TABLE audit_log (
    seq         BIGSERIAL PRIMARY KEY,
    event_id    UUID        NOT NULL UNIQUE,
    event_type  TEXT        NOT NULL,
    event_time  TIMESTAMPTZ NOT NULL,
    namespace   TEXT,
    actor       TEXT,
    action      TEXT        NOT NULL,
    target      TEXT        NOT NULL,
    outcome     INTEGER,
    request_id  TEXT
);
CREATE INDEX audit_log_namespace ON audit_log (namespace, seq);
CREATE INDEX audit_log_time ON audit_log (event_time);

-- Append-only: the service's role may insert and read, never rewrite history.
CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'audit_log is append-only';
END $$;
CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log
    FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
