-- LLM-facteval keeps the template question beside the one a generator wrote in its place, so
-- the two can be compared (the paper's Table 6: kglens_tui.modes.facteval_similarity). Empty
-- for a template question, and for questions generated before this column.
ALTER TABLE facteval_question ADD COLUMN template TEXT NOT NULL DEFAULT '';
