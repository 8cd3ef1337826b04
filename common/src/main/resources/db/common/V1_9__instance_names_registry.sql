-- Names of every instance of every service, in one table all services share (schema "registry",
-- owned by the group role lakehouse_services that the database bootstrap makes every service role a
-- member of). Claimed in the same transaction as the service's own instance row, so two services
-- can never both take a name in a namespace, nor two namespaces the same public host label
-- <name>-<namespace> (namespace "c" + "a-b" and namespace "b-c" + "a" both give "a-b-c").
-- Every service runs this migration; the first one creates the table.
SET LOCAL ROLE lakehouse_services;
SELECT pg_advisory_xact_lock(hashtext('registry.instance_names'));
CREATE TABLE IF NOT EXISTS registry.instance_names (
    namespace  text        NOT NULL,
    name       text        NOT NULL,
    kind       text        NOT NULL,
    uid        uuid        NOT NULL UNIQUE,
    host_label text        NOT NULL UNIQUE,
    claimed_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (namespace, name)
);
RESET ROLE;
