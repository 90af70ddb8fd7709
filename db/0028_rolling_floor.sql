-- The rolling-census floor (kglens_tui.modes.kglens.design): the floor of each draw is the next
-- edges of a random permutation of the run's edges, walked pass after pass, so its answers are a
-- census in random order, as brute force's are. Each floor visit stores its pass; the sampler's
-- picks and retries store NULL. A reader recomputes a run's KG-wide error rate from these rows
-- alone: the mean over the run edges the floor answered of each one's share of failed floor
-- answers (kglens_tui.modes.kglens.estimates.census_rate). Runs stored before keep their
-- design_draw rows (db/0020_sampling_design.sql) and are estimated by them.
ALTER TABLE observation ADD COLUMN floor_pass INTEGER;

DROP VIEW run_rates;
CREATE VIEW run_rates AS
WITH whole AS (
    -- a batch as large as the run (not brute force): the iterations that asked every run edge
    SELECT o.run_id, o.iteration
    FROM observation o
    JOIN run wr ON wr.id = o.run_id AND o.iteration <= wr.iterations_done
    WHERE json_extract(wr.config, '$.sampler') != 'brute-force'
        AND json_extract(wr.config, '$.batch_size') >= length(wr.edge_ids) / 8
    GROUP BY o.run_id, o.iteration
    HAVING COUNT(DISTINCT o.pos) >= MAX(length(wr.edge_ids) / 8, 1)
),
floor_run AS (
    -- a run with floor answers and no whole iteration: its floor's census
    SELECT DISTINCT o.run_id
    FROM observation o
    JOIN run fr ON fr.id = o.run_id AND o.iteration <= fr.iterations_done
    WHERE o.floor_pass IS NOT NULL AND o.category != 'error'
        AND o.run_id NOT IN (SELECT run_id FROM whole)
),
census_run AS (
    SELECT id AS run_id FROM run WHERE json_extract(config, '$.sampler') = 'brute-force'
    UNION
    SELECT run_id FROM whole
    UNION
    SELECT run_id FROM floor_run
),
draw_estimate AS (
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
        AND d.run_id NOT IN (SELECT run_id FROM census_run)
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
    WHERE (json_extract(cr.config, '$.sampler') = 'brute-force'
           OR (o.run_id, o.iteration) IN (SELECT run_id, iteration FROM whole)
           OR (o.floor_pass IS NOT NULL AND o.run_id IN (SELECT run_id FROM floor_run)))
        AND o.category != 'error'
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
