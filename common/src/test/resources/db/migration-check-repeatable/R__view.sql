CREATE OR REPLACE VIEW migration_check_v AS SELECT 1 AS one;
