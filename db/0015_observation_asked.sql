-- `observation_labelled` gains what a Yes/No question asked about: `object` is the fact's own
-- object, `asked_object` the entity the question named (the fact's object for a question whose
-- answer is yes, another entity for one whose answer is no; NULL for open questions), and
-- `expected` the answer the verifier wanted (yes | no; '' for open questions).
DROP VIEW observation_labelled;
CREATE VIEW observation_labelled AS
SELECT
    o.id, o.run_id, o.iteration, o.edge_id, s.label AS subject, p.label AS predicate, ob.label AS object,
    o.qtype, c.label AS asked_object, o.expected, o.question, o.reply, o.category, o.hedged,
    o.generator, o.verifier, o.error
FROM observation o
JOIN edge e ON e.id = o.edge_id
JOIN entity s ON s.id = e.subject_id
JOIN predicate p ON p.id = e.predicate_id
JOIN entity ob ON ob.id = e.object_id
LEFT JOIN entity c ON c.id = o.candidate_id;
