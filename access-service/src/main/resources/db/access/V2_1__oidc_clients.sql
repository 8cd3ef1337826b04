-- The OIDC client of each instance that people open in a browser (trino, jupyterhub, mlflow, nifi).
-- Intent (wanted) and state only: the client secret lives in Keycloak and in the <name>-oidc Secret,
-- never here.
CREATE TABLE oidc_clients (
    namespace  TEXT        NOT NULL,
    kind       TEXT        NOT NULL,
    name       TEXT        NOT NULL,
    client_id  TEXT        NOT NULL,
    wanted     BOOLEAN     NOT NULL DEFAULT TRUE,
    state      TEXT        NOT NULL DEFAULT 'Pending' CHECK (state IN ('Pending', 'Ready', 'Failed')),
    reason     TEXT,
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (namespace, kind, name)
);
