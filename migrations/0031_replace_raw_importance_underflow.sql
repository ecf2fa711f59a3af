-- base_importance * exp(x) still raised "value out of range: underflow" when the product
-- rounds to zero: PostgreSQL's float multiplication errors where Python returns 0.0. A
-- base_importance banked on access after years of decay can be ~1e-30, and one such row
-- aborted a whole decay run. Below 1e-100 the value is 0 (the domain's value is smaller
-- than that); otherwise the exponent is clamped at -400, so the product is at least
-- ~1e-274: both differ from the domain by far less than the property test's 1e-9.
-- The body stays immutable (0030), so the planner still inlines it.
CREATE OR REPLACE FUNCTION memlane_raw_importance(
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
