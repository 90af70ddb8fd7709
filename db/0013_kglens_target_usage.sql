-- KGLens runs count their requests in target_usage too, as every mode does: their iteration rows
-- hold only committed iterations, so the requests of an iteration dropped whole (stop now,
-- quitting, the failure rule) were forgotten, by the budget of a resumed run too. Runs stored
-- before start from their iterations' sums.
INSERT OR IGNORE INTO target_usage(run_id, requests, errors, retries, prompt_tokens,
                                   completion_tokens)
SELECT run_id, SUM(requests), SUM(errors), SUM(retries), SUM(prompt_tokens),
       SUM(completion_tokens)
FROM iteration GROUP BY run_id;

DROP VIEW run_rates;
-- Every run with its latest rates (KGLens runs; NULL for the other modes) and its requests.
CREATE VIEW run_rates AS
SELECT
    r.id AS run_id, r.name, r.mode, r.status, r.stop_reason, k.name AS kg, r.target_label,
    r.simulated, r.iterations_done, i.examined, i.win_rate, i.zero_sense_rate, i.all_sense_rate,
    (SELECT u.requests FROM target_usage u WHERE u.run_id = r.id) AS requests,
    r.created_at, r.updated_at
FROM run r
JOIN kg k ON k.id = r.kg_id
LEFT JOIN iteration i ON i.run_id = r.id AND i.iteration = r.iterations_done;
