"""LLM-facteval mode: TFQ / MCQ / SAQ questions under context variants, scored with abstention;
its plan, scoring, comparisons, figures and question similarity."""
