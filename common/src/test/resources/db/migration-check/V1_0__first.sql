-- The first migration of MigrationHistoryTest.
CREATE TABLE migration_check_a (id int PRIMARY KEY);
