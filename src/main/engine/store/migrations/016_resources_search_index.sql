-- A search of a kind's cached records (resources.list with a search) looks at every record's search text: with the
-- text in the index beside the order, counting and paging 50,000 people reads the index alone, never the records.
CREATE INDEX resource_records_search ON resource_records (profile_id, kind, position, id, search);
DROP INDEX resource_records_order;
