-- The instance framework of common stores every service's instances alike: the kind is a column, as
-- in engines. Every existing row is an iceberg-catalog; new rows always name their kind.
ALTER TABLE instances ADD COLUMN kind TEXT NOT NULL DEFAULT 'iceberg-catalog';
ALTER TABLE instances ALTER COLUMN kind DROP DEFAULT;
CREATE INDEX instances_by_kind ON instances (namespace, kind, name);
