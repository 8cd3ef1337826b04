-- Identity keys (docs/architecture.md, "Identities"): a user is its lowercased username, a group its full
-- path. Rows written before keep working: users lowercased (of duplicates by case the highest role stays),
-- short group names taken as top-level groups ('data-team' -> '/data-team'). No events are published for
-- these rewrites: the other services' role projections learn a group's full path when its membership is
-- set again (PUT .../members/group:/data-team); users need nothing (Subject lowercases on read).
DELETE FROM members WHERE ctid IN (
    SELECT ctid FROM (
        SELECT ctid, row_number() OVER (PARTITION BY namespace, lower(subject)
            ORDER BY CASE role WHEN 'admin' THEN 0 WHEN 'operator' THEN 1 ELSE 2 END, subject) AS n
        FROM members WHERE subject_type = 'user') ranked
    WHERE n > 1);
UPDATE members SET subject = lower(subject) WHERE subject_type = 'user' AND subject <> lower(subject);
UPDATE members SET subject = '/' || subject WHERE subject_type = 'group' AND subject NOT LIKE '/%';

DELETE FROM grants WHERE ctid IN (
    SELECT ctid FROM (
        SELECT ctid, row_number() OVER (PARTITION BY namespace, kind, name, lower(subject) ORDER BY subject) AS n
        FROM grants WHERE subject_type = 'user') ranked
    WHERE n > 1);
UPDATE grants SET subject = lower(subject) WHERE subject_type = 'user' AND subject <> lower(subject);
UPDATE grants SET subject = '/' || subject WHERE subject_type = 'group' AND subject NOT LIKE '/%';
UPDATE instances SET created_by = lower(created_by) WHERE created_by <> lower(created_by);
