-- Grants on our instances, a projection of access-service's access.grant-added / -removed on
-- lakehouse.access (consumer group engines-service-grants, deduplicated by the inbox): Trino's access
-- rules are generated from them. Subjects as access-service names them (user or group).
CREATE TABLE instance_grants (
    namespace    TEXT NOT NULL,
    name         TEXT NOT NULL,
    kind         TEXT NOT NULL,
    subject_type TEXT NOT NULL CHECK (subject_type IN ('user', 'group')),
    subject      TEXT NOT NULL,
    PRIMARY KEY (namespace, name, subject_type, subject)
);

-- A grant change wakes the reconciler at commit time on whichever replica leads (instances_notify of
-- V2_0 sends namespace/name on reconcile_<schema>), so the rules follow the grants within seconds.
CREATE TRIGGER instance_grants_changed AFTER INSERT OR DELETE ON instance_grants
    FOR EACH ROW EXECUTE FUNCTION instances_notify();
