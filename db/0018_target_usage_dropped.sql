-- Requests a run sent whose replies were dropped with their iteration or unit (a stop now,
-- quitting, Ctrl-C, the failure rule): counted in `requests`, apart from `errors` (the requests
-- the target failed), so a user's stop does not read as the endpoint failing. Runs stored before
-- this column counted them as errors.
ALTER TABLE target_usage ADD COLUMN dropped INTEGER NOT NULL DEFAULT 0;

DROP VIEW run_rates;
-- Every run with its latest rates (KGLens runs; NULL for the other modes), its requests, how
-- many of them failed and how many were dropped (as `kglens runs` counts them), and a unit-mode
-- run's planned units. `status` is as stored: a run whose process was killed says running here
-- until it is resumed.
CREATE VIEW run_rates AS
SELECT
    r.id AS run_id, r.name, r.mode, r.status, r.stop_reason, k.name AS kg, r.target_label,
    r.simulated, r.iterations_done, r.units_total, i.examined, i.win_rate, i.zero_sense_rate,
    i.all_sense_rate,
    (SELECT u.requests FROM target_usage u WHERE u.run_id = r.id) AS requests,
    (SELECT u.errors FROM target_usage u WHERE u.run_id = r.id) AS failed,
    (SELECT u.dropped FROM target_usage u WHERE u.run_id = r.id) AS dropped,
    r.created_at, r.updated_at
FROM run r
JOIN kg k ON k.id = r.kg_id
LEFT JOIN iteration i ON i.run_id = r.id AND i.iteration = r.iterations_done;
