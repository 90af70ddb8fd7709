-- LLM calls a run makes besides asking its target: the question generator, KONTEST's
-- paraphraser, the Wh judge. Added to in the same transaction as the results they served, so a
-- resumed run's counts stay exact.
CREATE TABLE helper_usage (
    run_id            INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    role              TEXT NOT NULL,                  -- a kglens_tui.llm.usage.HelperRole value
    requests          INTEGER NOT NULL DEFAULT 0,
    errors            INTEGER NOT NULL DEFAULT 0,
    prompt_tokens     INTEGER NOT NULL DEFAULT 0,
    completion_tokens INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (run_id, role)
) WITHOUT ROWID;
