-- run_rates leads with each KGLens run's KG-wide rates, the estimate `kglens report` and
-- `kglens runs` lead with (kglens_tui.modes.kglens.estimates; as stored, before any annotation
-- marks an edge a KG error), computed here from observation and design_draw alone:
--   a run drawn by the design: per draw with a floor,
--     (total + SUM((failed - prediction) / incl_prob)) / population
--   over its answers (not failed requests), averaged over those draws weighted by floor_size
--   (db/0020_sampling_design.sql);
--   brute force (a census in random order): the mean over the examined edges of each edge's
--   share of failed answers.
-- failed: the verdicts incorrect, refused and unparseable. kg_wide_answers: the answers the
-- estimate rests on; its 95% interval (weighting makes a plain share's misleading) is
-- `kglens report`'s. NULL: no KGLens answer yet, or a run drawn without the design (stored
-- before it). The paper's rates that follow are over the edges the run examined (iteration's
-- columns), which depend on where the sampler looked: their names say so.
DROP VIEW run_rates;
CREATE VIEW run_rates AS
WITH draw_estimate AS (
    SELECT
        d.run_id, d.floor_size, COUNT(o.id) AS answers,
        (d.total + COALESCE(SUM(
            ((o.category IN ('incorrect', 'refused', 'unparseable')) - o.prediction) / o.incl_prob
        ), 0)) / d.population AS error
    FROM design_draw d
    JOIN run dr ON dr.id = d.run_id AND d.iteration <= dr.iterations_done
    LEFT JOIN observation o ON o.run_id = d.run_id AND o.iteration = d.iteration
        AND o.draw_slot = d.first_slot AND o.category != 'error' AND o.incl_prob > 0
    WHERE d.floor_size > 0 AND d.population > 0
    GROUP BY d.run_id, d.iteration, d.first_slot
),
design AS (
    SELECT run_id, SUM(floor_size * error) / SUM(floor_size) AS error, SUM(answers) AS answers
    FROM draw_estimate
    GROUP BY run_id
),
edge_share AS (
    SELECT
        o.run_id, COUNT(*) AS asked,
        AVG(o.category IN ('incorrect', 'refused', 'unparseable')) AS share
    FROM observation o
    JOIN run cr ON cr.id = o.run_id AND o.iteration <= cr.iterations_done
    WHERE json_extract(cr.config, '$.sampler') = 'brute-force' AND o.category != 'error'
    GROUP BY o.run_id, o.pos
),
census AS (
    SELECT run_id, AVG(share) AS error, SUM(asked) AS answers FROM edge_share GROUP BY run_id
),
kg_wide AS (
    SELECT run_id, error, answers, 'design' AS method FROM design
    UNION ALL
    SELECT run_id, error, answers, 'census' AS method FROM census
)
SELECT
    r.id AS run_id, r.name, r.mode, r.status, r.stop_reason, k.name AS kg, r.target_label,
    r.simulated, r.iterations_done, r.units_total,
    1.0 - w.error AS kg_wide_win_rate, w.error AS kg_wide_error_rate,
    w.answers AS kg_wide_answers, w.method AS kg_wide_method,
    i.examined, i.win_rate AS examined_win_rate, i.zero_sense_rate AS examined_zero_sense_rate,
    i.all_sense_rate AS examined_all_sense_rate,
    (SELECT u.requests FROM target_usage u WHERE u.run_id = r.id) AS requests,
    (SELECT u.errors FROM target_usage u WHERE u.run_id = r.id) AS failed,
    (SELECT u.dropped FROM target_usage u WHERE u.run_id = r.id) AS dropped,
    r.created_at, r.updated_at
FROM run r
JOIN kg k ON k.id = r.kg_id
LEFT JOIN iteration i ON i.run_id = r.id AND i.iteration = r.iterations_done
LEFT JOIN kg_wide w ON w.run_id = r.id;
