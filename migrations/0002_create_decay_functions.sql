-- The forgetting curve in SQL, mirroring memlane.domain.decay exactly (a property
-- test keeps them in step). Per-type modifier and floor are parameters: the numbers
-- live in Python (TYPE_DECAY) only.
--
-- Both functions must be inlined into the decay UPDATE (a real call per row made a 1M-row
-- decay ~4x slower): PostgreSQL inlines an IMMUTABLE SQL function only when its body is
-- immutable and it is not STRICT (greatest()/least() cannot be proven strict). Hence
-- date_part('epoch', now - accessed_at) (immutable) rather than extract(epoch FROM
-- timestamptz) (only STABLE), and CALLED ON NULL INPUT (the columns are NOT NULL anyway).
--
-- PostgreSQL raises "underflow" where Python's float arithmetic returns 0.0, and one such
-- row would abort a whole decay run: a base below 1e-100 counts as 0 and the exponent is
-- clamped at -400, both far inside the property test's 1e-9 tolerance.

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
RETURN CASE
    WHEN base_importance < 1e-100::double precision THEN 0.0::double precision
    ELSE base_importance * exp(greatest(
        -400.0::double precision,
        -(base_rate * type_modifier
          / (1.0::double precision + ln(1.0::double precision + access_count)))
        * greatest(
            0.0::double precision,
            date_part('epoch', now - accessed_at) / 86400.0::double precision
        )
    ))
END;

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
