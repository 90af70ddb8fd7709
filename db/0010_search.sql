-- Full-text search over the questions and replies of KGLens runs (`kglens search`, the review
-- screen's search box): an FTS5 index kept current by triggers, named as sqlite-utils names
-- them so its `Table.search` finds it. Existing observations are indexed here once.
CREATE VIRTUAL TABLE observation_fts USING fts5(
    question, reply, content="observation", content_rowid="id"
);

CREATE TRIGGER observation_ai AFTER INSERT ON observation BEGIN
    INSERT INTO observation_fts(rowid, question, reply) VALUES (new.id, new.question, new.reply);
END;

CREATE TRIGGER observation_ad AFTER DELETE ON observation BEGIN
    INSERT INTO observation_fts(observation_fts, rowid, question, reply)
    VALUES ('delete', old.id, old.question, old.reply);
END;

CREATE TRIGGER observation_au AFTER UPDATE ON observation BEGIN
    INSERT INTO observation_fts(observation_fts, rowid, question, reply)
    VALUES ('delete', old.id, old.question, old.reply);
    INSERT INTO observation_fts(rowid, question, reply) VALUES (new.id, new.question, new.reply);
END;

INSERT INTO observation_fts(observation_fts) VALUES ('rebuild');

-- Views for reading the workspace in Datasette or any SQLite browser.
-- Every run with its latest rates (KGLens runs; NULL for KONTEST and fact-eval runs).
CREATE VIEW run_rates AS
SELECT
    r.id AS run_id, r.name, r.mode, r.status, r.stop_reason, k.name AS kg, r.target_label,
    r.simulated, r.iterations_done, i.examined, i.win_rate, i.zero_sense_rate, i.all_sense_rate,
    (SELECT SUM(t.requests) FROM iteration t WHERE t.run_id = r.id) AS requests,
    r.created_at, r.updated_at
FROM run r
JOIN kg k ON k.id = r.kg_id
LEFT JOIN iteration i ON i.run_id = r.id AND i.iteration = r.iterations_done;

-- Every KGLens question and reply with the labels of the fact it asked about.
CREATE VIEW observation_labelled AS
SELECT
    o.id, o.run_id, o.iteration, o.edge_id, s.label AS subject, p.label AS predicate, ob.label AS object,
    o.qtype, o.question, o.reply, o.category, o.hedged, o.generator, o.verifier, o.error
FROM observation o
JOIN edge e ON e.id = o.edge_id
JOIN entity s ON s.id = e.subject_id
JOIN predicate p ON p.id = e.predicate_id
JOIN entity ob ON ob.id = e.object_id;
