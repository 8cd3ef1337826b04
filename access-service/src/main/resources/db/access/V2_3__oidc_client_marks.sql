-- Keycloak clients that cannot collide (docs/architecture.md, "OIDC clients"): the id becomes
-- <namespace>.<name>.<kind> (neither a namespace nor an instance name can hold a '.', so two instances never
-- share an id), and each client carries its instance's uid as attribute lakehouse.instance-uid. The worker
-- adopts or deletes only a client with that mark. instance_uid: the uid of the instance (from
-- instance.requested, else generated here); retired_uid: the uid of the previous instance of the same name
-- when it was requested again before its client was removed (that client is still ours).
ALTER TABLE oidc_clients ADD COLUMN instance_uid TEXT;
ALTER TABLE oidc_clients ADD COLUMN retired_uid TEXT;
UPDATE oidc_clients SET instance_uid = gen_random_uuid()::text;
ALTER TABLE oidc_clients ALTER COLUMN instance_uid SET NOT NULL;
-- Clients made under the old ids (<ns>-<name>-<kind>) carry no mark: they are left in Keycloak (an admin
-- removes them); the instances get new, marked clients and their Secrets follow.
UPDATE oidc_clients SET client_id = namespace || '.' || name || '.' || kind;
