-- Second one: several lines, a non-ASCII comment (café), an empty line.

CREATE TABLE migration_check_b (
    id int PRIMARY KEY,
    note text
);
COMMENT ON TABLE migration_check_b IS 'ok';
