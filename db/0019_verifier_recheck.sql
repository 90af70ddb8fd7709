-- Each time `kglens triage reverify` stored a re-check of a KGLens run's replies: under which
-- verifier rules (kglens_tui.core.verdict.VERIFIER_RULES), how many verdicts it changed (each a
-- triage entry), who and when. A run's verdicts are current when its manifest's rules or a
-- re-check here reach today's rules.
CREATE TABLE verifier_recheck (
    id         INTEGER PRIMARY KEY,
    run_id     INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    rules      INTEGER NOT NULL,
    changed    INTEGER NOT NULL,
    author     TEXT NOT NULL CHECK (length(trim(author)) > 0),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX verifier_recheck_run ON verifier_recheck(run_id);
