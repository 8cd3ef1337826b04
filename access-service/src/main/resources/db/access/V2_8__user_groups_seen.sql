-- The groups of each user's newest platform token seen at forward-auth (seen_at: its iat), published as
-- access.user-groups-seen whenever they change, because Trino reads no groups from tokens
-- (trinodb/trino#15669) and engines-service must write them into Trino's group file. Keycloak's group
-- membership is not visible otherwise (the local token issuer has no directory at all).
CREATE TABLE user_groups_seen (
    username TEXT        PRIMARY KEY,
    groups   TEXT[]      NOT NULL,
    seen_at  TIMESTAMPTZ NOT NULL
);
