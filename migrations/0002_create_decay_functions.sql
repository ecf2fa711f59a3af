-- The forgetting curve in SQL, mirroring memlane.domain.decay exactly (a property
-- test keeps them in step). Per-type modifier and floor are parameters: the numbers
-- live in Python (TYPE_DECAY) only. Single-expression SQL functions are inlined.

-- raw(t) = base * exp(-(base_rate * modifier / (1 + ln(1 + n))) * days_since(accessed_at, t))
CREATE FUNCTION memlane_raw_importance(
    base_importance double precision,
    access_count integer,
    accessed_at timestamptz,
    type_modifier double precision,
    now timestamptz,
    base_rate double precision
) RETURNS double precision
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
RETURN base_importance * exp(
    -(base_rate * type_modifier / (1.0::double precision + ln(1.0::double precision + access_count)))
    * greatest(
        0.0::double precision,
        (extract(epoch FROM now) - extract(epoch FROM accessed_at))::double precision
            / 86400.0::double precision
    )
);

-- importance(t) = min(1, max(raw(t) + min(n * 0.005, 0.08), floor))
CREATE FUNCTION memlane_importance(
    base_importance double precision,
    access_count integer,
    accessed_at timestamptz,
    type_modifier double precision,
    type_floor double precision,
    now timestamptz,
    base_rate double precision
) RETURNS double precision
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
RETURN least(
    1.0::double precision,
    greatest(
        memlane_raw_importance(base_importance, access_count, accessed_at, type_modifier, now, base_rate)
            + least(access_count * 0.005::double precision, 0.08::double precision),
        type_floor
    )
);
