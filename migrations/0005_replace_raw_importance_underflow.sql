-- PostgreSQL's exp() raises "value out of range: underflow" where Python's math.exp quietly
-- returns 0.0 (a memory decayed for years at a steep rate), which would abort a whole decay
-- run. Clamp the exponent at -700: exp(-700) is about 1e-304, so the result differs from
-- the domain's by less than 1e-300 and the property test tolerance (1e-9) holds.
CREATE OR REPLACE FUNCTION memlane_raw_importance(
    base_importance double precision,
    access_count integer,
    accessed_at timestamptz,
    type_modifier double precision,
    now timestamptz,
    base_rate double precision
) RETURNS double precision
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
RETURN base_importance * exp(greatest(
    -700.0::double precision,
    -(base_rate * type_modifier / (1.0::double precision + ln(1.0::double precision + access_count)))
    * greatest(
        0.0::double precision,
        (extract(epoch FROM now) - extract(epoch FROM accessed_at))::double precision
            / 86400.0::double precision
    )
));
