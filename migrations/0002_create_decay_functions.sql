-- The forgetting curve in SQL, mirroring memlane.domain.decay exactly (a property
-- test keeps them in step). Per-type modifier and floor are parameters: the numbers
-- live in Python (TYPE_DECAY) only.
--
-- Not STRICT: PostgreSQL inlines a STRICT SQL function only when it can prove the body
-- strict, and greatest()/least() are not, so STRICT versions run as real calls (about 3x
-- slower over a million rows). NULL inputs never occur: the columns are NOT NULL.
--
-- The exponent is clamped at -700: PostgreSQL's exp() raises "underflow" where Python's
-- math.exp returns 0.0 (a memory decayed for years at a steep rate), which would abort a
-- whole decay run. exp(-700) is about 1e-304, far inside the property test's tolerance.

-- raw(t) = base * exp(-(base_rate * modifier / (1 + ln(1 + n))) * days_since(accessed_at, t))
CREATE FUNCTION memlane_raw_importance(
    base_importance double precision,
    access_count integer,
    accessed_at timestamptz,
    type_modifier double precision,
    now timestamptz,
    base_rate double precision
) RETURNS double precision
LANGUAGE sql IMMUTABLE PARALLEL SAFE CALLED ON NULL INPUT
RETURN base_importance * exp(greatest(
    -700.0::double precision,
    -(base_rate * type_modifier / (1.0::double precision + ln(1.0::double precision + access_count)))
    * greatest(
        0.0::double precision,
        (extract(epoch FROM now) - extract(epoch FROM accessed_at))::double precision
            / 86400.0::double precision
    )
));

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
LANGUAGE sql IMMUTABLE PARALLEL SAFE CALLED ON NULL INPUT
RETURN least(
    1.0::double precision,
    greatest(
        memlane_raw_importance(base_importance, access_count, accessed_at, type_modifier, now, base_rate)
            + least(access_count * 0.005::double precision, 0.08::double precision),
        type_floor
    )
);
