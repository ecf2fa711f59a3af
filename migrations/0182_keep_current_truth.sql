-- What cleanup may not take (issue 31): a memory that carries a current fact of one value at
-- a time (home, job, name...) or of health and safety. One more clause of the domain's rule
-- (memlane.domain.memories.cleanup.may_clean_up), which a property test holds equal to this
-- function. The 0163 version is replaced: same clauses, in the same order, plus this one,
-- before the imported-history clause (AND stops at the first false: the probes run only for a
-- faded row past its grace period).
DROP FUNCTION memlane_may_clean_up(
    double precision, double precision, boolean, timestamptz, timestamptz, boolean, boolean,
    boolean
);

CREATE FUNCTION memlane_may_clean_up(
    importance double precision,
    min_importance double precision,
    pinned boolean,
    arrived_at timestamptz,
    arrived_by timestamptz,
    carries_key_fact boolean,
    imported boolean,
    carries_fact boolean,
    names_entity boolean
) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE CALLED ON NULL INPUT
RETURN NOT pinned
   AND importance <= min_importance
   AND arrived_at <= arrived_by
   AND NOT carries_key_fact
   AND NOT (imported AND (carries_fact OR names_entity));
