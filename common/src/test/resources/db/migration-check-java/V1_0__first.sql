CREATE TABLE migration_check_a (id int);
