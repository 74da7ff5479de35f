-- One table says how fresh every cached list is: the resource kit's kinds join the mentors area's lists in
-- cached_lists as `kit:<kind>` (the two tables had the same columns and the same statements, written twice).
INSERT INTO cached_lists (profile_id, list, tenant, as_of, checked_at, error)
  SELECT profile_id, 'kit:' || kind, tenant, as_of, checked_at, error FROM resource_lists;
DROP TABLE resource_lists;
