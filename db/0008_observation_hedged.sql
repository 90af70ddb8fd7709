-- hedged: the reply gave its answer with doubt ("I think it is Canberra", "Probably not");
--   the verdict stands (a hedged right answer is correct), reports count these apart.
-- matcher: when an LLM judge gave the verdict of a Wh reply, the alias matcher's own verdict
--   on it ('' otherwise), so reports can say how often the two agree.
ALTER TABLE observation ADD COLUMN hedged INTEGER NOT NULL DEFAULT 0;
ALTER TABLE observation ADD COLUMN matcher TEXT NOT NULL DEFAULT '';
