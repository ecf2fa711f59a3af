-- An entity no memory mentions any more is gone with the last mention (one memory's
-- deletion, an owner's erasure, a cleanup): a forgotten name keeps no node, not even its
-- blind index and sealed label. Set-based over the mentions the statement deleted; only
-- those entities are probed (memory_mentions_entity_idx answers each probe). Two
-- statements: a later part of one statement would still see the deleted mentions.

CREATE OR REPLACE FUNCTION memlane_forget_graph_of_deleted() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    tenants text[];
    users text[];
    entities uuid[];
BEGIN
    DELETE FROM memory_edges AS e USING gone AS g
    WHERE e.tenant = g.tenant AND e.user_id = g.user_id AND e.source = g.id;
    DELETE FROM memory_edges AS e USING gone AS g
    WHERE e.tenant = g.tenant AND e.user_id = g.user_id AND e.target = g.id;
    WITH dropped AS (
        DELETE FROM memory_mentions AS x USING gone AS g
        WHERE x.tenant = g.tenant AND x.user_id = g.user_id AND x.memory_id = g.id
        RETURNING x.tenant, x.user_id, x.entity_id
    ), touched AS (
        SELECT DISTINCT tenant, user_id, entity_id FROM dropped
    )
    SELECT array_agg(tenant), array_agg(user_id), array_agg(entity_id)
    INTO tenants, users, entities FROM touched;
    IF entities IS NOT NULL THEN
        DELETE FROM memory_entities AS n
        USING unnest(tenants, users, entities) AS d(tenant, user_id, id)
        WHERE n.tenant = d.tenant AND n.user_id = d.user_id AND n.id = d.id
          AND NOT EXISTS (
              SELECT 1 FROM memory_mentions AS x
              WHERE x.tenant = n.tenant AND x.user_id = n.user_id AND x.entity_id = n.id
          );
    END IF;
    RETURN NULL;
END;
$$;
