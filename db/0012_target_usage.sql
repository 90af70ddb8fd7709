-- Requests a unit-mode run (KONTEST, fact-eval, a plugin's) has sent its target, each counted
-- once: the answer tables keep a unit's latest attempt only (a unit whose request failed is
-- asked again on resume and its rows replaced), so their sums would forget the failed attempts.
-- Added to in the same transaction as the answers. KGLens counts in its iteration table.
CREATE TABLE target_usage (
    run_id            INTEGER PRIMARY KEY REFERENCES run(id) ON DELETE CASCADE,
    requests          INTEGER NOT NULL DEFAULT 0,
    errors            INTEGER NOT NULL DEFAULT 0,
    retries           INTEGER NOT NULL DEFAULT 0,
    prompt_tokens     INTEGER NOT NULL DEFAULT 0,
    completion_tokens INTEGER NOT NULL DEFAULT 0
);

DROP VIEW run_rates;
-- Every run with its latest rates (KGLens runs; NULL for the other modes) and its requests.
CREATE VIEW run_rates AS
SELECT
    r.id AS run_id, r.name, r.mode, r.status, r.stop_reason, k.name AS kg, r.target_label,
    r.simulated, r.iterations_done, i.examined, i.win_rate, i.zero_sense_rate, i.all_sense_rate,
    COALESCE(
        (SELECT SUM(t.requests) FROM iteration t WHERE t.run_id = r.id),
        (SELECT u.requests FROM target_usage u WHERE u.run_id = r.id)
    ) AS requests,
    r.created_at, r.updated_at
FROM run r
JOIN kg k ON k.id = r.kg_id
LEFT JOIN iteration i ON i.run_id = r.id AND i.iteration = r.iterations_done;
