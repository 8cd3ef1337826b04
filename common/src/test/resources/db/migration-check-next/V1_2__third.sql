CREATE TABLE migration_check_c (id int);
