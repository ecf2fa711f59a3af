-- Make the decay functions inlinable: PostgreSQL only inlines a STRICT SQL function when it
-- can prove the body strict, and greatest()/least() are not, so the STRICT versions ran as
-- real function calls (two per row in a decay run; ~3x slower over a million rows).
-- Same formulas as 0002/0005; NULL inputs never occur (the columns are NOT NULL).
CREATE OR REPLACE FUNCTION memlane_raw_importance(
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

CREATE OR REPLACE FUNCTION memlane_importance(
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
