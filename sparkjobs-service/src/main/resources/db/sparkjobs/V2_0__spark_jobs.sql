-- The job profiles of the namespaces: one row per spark-connect instance, from its instance.* events
-- (spec.profile: image, pull secret, non-secret sparkConf, Secret references). Never a secret value.
CREATE TABLE profiles (
    namespace  TEXT        NOT NULL,
    name       TEXT        NOT NULL,
    profile    JSONB       NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (namespace, name)
);

-- The history: every job of a namespace, launched here or found on the cluster (hand_made), kept
-- until the job is deleted through the API, so the operator's TTL never erases what users look at.
CREATE TABLE jobs (
    namespace    TEXT        NOT NULL,
    name         TEXT        NOT NULL,
    state        TEXT        NOT NULL,
    source_type  TEXT,
    profile      TEXT,
    schedule     TEXT,
    -- The launch form without the script text (the ConfigMap holds it) and without any credential;
    -- null for a job made by hand (relaunch refused: no form).
    form         JSONB,
    script       TEXT,
    created_by   TEXT,
    created_at   TIMESTAMPTZ NOT NULL,
    started_at   TIMESTAMPTZ,
    ended_at     TIMESTAMPTZ,
    error        TEXT,
    -- The last driver lines, read when the job ends (the pod goes with the TTL; these stay).
    driver_log   TEXT,
    PRIMARY KEY (namespace, name)
);
CREATE INDEX jobs_by_time ON jobs (namespace, created_at DESC, name);

-- Schedules: the form of their runs (no script text: see script) and the timing, mirrored by a
-- ScheduledSparkApplication of the same name.
CREATE TABLE schedules (
    namespace   TEXT        NOT NULL,
    name        TEXT        NOT NULL,
    cron        TEXT        NOT NULL,
    time_zone   TEXT        NOT NULL,
    policy      TEXT        NOT NULL,
    runs_kept   INT         NOT NULL,
    suspended   BOOLEAN     NOT NULL DEFAULT false,
    form        JSONB       NOT NULL,
    script      TEXT,
    created_by  TEXT        NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (namespace, name)
);
