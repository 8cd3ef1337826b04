-- Only Trino's objects are generated from its grants (InstanceKind.readsGrants): the grants of the other kinds are no
-- longer kept, since a change of them woke a pass that had nothing to do. Those kept before go.
DELETE FROM instance_grants WHERE kind <> 'trino';
