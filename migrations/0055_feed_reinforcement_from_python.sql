-- The access bonus min(n * per_access, max) takes its two constants as parameters, fed from
-- memlane.domain.decay (REINFORCEMENT_PER_ACCESS, MAX_REINFORCEMENT) like the per-type
-- modifiers and floors: the numbers live in Python only (migration 0002 wrote them inline).
-- Inlining rules as in 0002: IMMUTABLE, not STRICT, SQL body.
DROP FUNCTION memlane_importance(
    double precision, integer, timestamptz, double precision, double precision, timestamptz,
    double precision
);

-- importance(t) = min(1, max(raw(t) + min(n * per_access, max_reinforcement), floor))
CREATE FUNCTION memlane_importance(
    base_importance double precision,
    access_count integer,
    accessed_at timestamptz,
    type_modifier double precision,
    type_floor double precision,
    now timestamptz,
    base_rate double precision,
    per_access double precision,
    max_reinforcement double precision
) RETURNS double precision
LANGUAGE sql IMMUTABLE PARALLEL SAFE CALLED ON NULL INPUT
RETURN least(
    1.0::double precision,
    greatest(
        memlane_raw_importance(base_importance, access_count, accessed_at, type_modifier, now, base_rate)
            + least(access_count * per_access, max_reinforcement),
        type_floor
    )
);
