-- Two more probing modes, stored next to KGLens runs: a run row with mode 'kontest' (consistency
-- testing, KONTEST) or 'facteval' (question types with abstention, LLM-facteval). The plan
-- (relations, paths, questions) is written when the run is created; results are written as each
-- test unit finishes. Oracle verdicts and metrics are computed from these rows, never stored.

-- KONTEST: one fact (subject, predicate, object) to test; edge_id is NULL for a fact implied by
-- a transitive predicate (A -> C along A -> B -> C).
CREATE TABLE kontest_relation (
    run_id       INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    idx          INTEGER NOT NULL,
    subject_id   INTEGER NOT NULL REFERENCES entity(id) ON DELETE CASCADE,
    predicate_id INTEGER NOT NULL REFERENCES predicate(id) ON DELETE CASCADE,
    object_id    INTEGER NOT NULL REFERENCES entity(id) ON DELETE CASCADE,
    edge_id      INTEGER REFERENCES edge(id) ON DELETE SET NULL,
    origin       TEXT NOT NULL CHECK (origin IN ('edge', 'path')),
    question1    TEXT NOT NULL,                   -- template 1
    question2    TEXT NOT NULL,                   -- template 2 (or the statement as a question)
    PRIMARY KEY (run_id, idx)
) WITHOUT ROWID;

-- KONTEST: a path A0 -> A1 -> ... -> Ak along one transitive predicate (ontological oracle).
CREATE TABLE kontest_path (
    run_id       INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    idx          INTEGER NOT NULL,
    predicate_id INTEGER NOT NULL REFERENCES predicate(id) ON DELETE CASCADE,
    nodes        TEXT NOT NULL,                   -- JSON list of entity ids, in path order
    PRIMARY KEY (run_id, idx)
) WITHOUT ROWID;

-- KONTEST: one asked question. atomic1 / atomic2 are separate conversations with template 1 / 2;
-- seq12 asks template 1 then 2 in one conversation (turn 0, 1), seq21 the reverse.
CREATE TABLE kontest_query (
    run_id            INTEGER NOT NULL,
    relation          INTEGER NOT NULL,
    conversation      TEXT NOT NULL CHECK (conversation IN ('atomic1', 'atomic2', 'seq12', 'seq21')),
    turn              INTEGER NOT NULL CHECK (turn IN (0, 1)),
    template          INTEGER NOT NULL CHECK (template IN (1, 2)),
    generator         TEXT NOT NULL DEFAULT 'template',
    question          TEXT NOT NULL,
    reply             TEXT NOT NULL DEFAULT '',
    answer            TEXT NOT NULL CHECK (answer IN ('yes', 'no', 'invalid', 'error')),
    prompt_tokens     INTEGER NOT NULL DEFAULT 0,
    completion_tokens INTEGER NOT NULL DEFAULT 0,
    latency_ms        REAL,
    retries           INTEGER NOT NULL DEFAULT 0,
    error             TEXT NOT NULL DEFAULT '',   -- the API failure when answer = 'error'
    PRIMARY KEY (run_id, relation, conversation, turn),
    FOREIGN KEY (run_id, relation) REFERENCES kontest_relation(run_id, idx) ON DELETE CASCADE
) WITHOUT ROWID;

-- LLM-facteval: one planned question (TFQ, MCQ or SAQ) with everything needed to score it.
CREATE TABLE facteval_question (
    id           INTEGER PRIMARY KEY,
    run_id       INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    idx          INTEGER NOT NULL,
    edge_id      INTEGER REFERENCES edge(id) ON DELETE SET NULL,
    subject_id   INTEGER NOT NULL REFERENCES entity(id) ON DELETE CASCADE,
    predicate_id INTEGER NOT NULL REFERENCES predicate(id) ON DELETE CASCADE,
    qtype        TEXT NOT NULL CHECK (qtype IN ('tfq', 'mcq', 'saq')),
    format       TEXT NOT NULL CHECK (format IN ('statement', 'fib', 'wh')),
    truth        TEXT NOT NULL DEFAULT '',        -- TFQ: 'true' or 'false' statement
    question     TEXT NOT NULL,                   -- the template question until a generator ran
    generator    TEXT NOT NULL DEFAULT 'template',
    choices      TEXT NOT NULL DEFAULT '[]',      -- MCQ: JSON [label, ...] in the order shown
    answers      TEXT NOT NULL DEFAULT '[]',      -- JSON [[label, alias, ...], ...] correct answers
    wrong        TEXT NOT NULL DEFAULT '[]',      -- JSON [[label, alias, ...], ...] wrong choices
    contexts     TEXT NOT NULL DEFAULT '{}',      -- JSON {context: text} injected before the question
    UNIQUE (run_id, idx)
);

-- LLM-facteval: the reply to one question under one context.
CREATE TABLE facteval_answer (
    question_id       INTEGER NOT NULL REFERENCES facteval_question(id) ON DELETE CASCADE,
    context           TEXT NOT NULL CHECK (context IN ('none', 'relevant', 'irrelevant', 'antifactual')),
    reply             TEXT NOT NULL DEFAULT '',
    category          TEXT NOT NULL CHECK (category IN ('correct', 'incorrect', 'abstained', 'unparseable', 'error')),
    matched           INTEGER NOT NULL DEFAULT 0, -- SAQ: how many correct answers the reply names
    prompt_tokens     INTEGER NOT NULL DEFAULT 0,
    completion_tokens INTEGER NOT NULL DEFAULT 0,
    latency_ms        REAL,
    retries           INTEGER NOT NULL DEFAULT 0,
    error             TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (question_id, context)
) WITHOUT ROWID;
