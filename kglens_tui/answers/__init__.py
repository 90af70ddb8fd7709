"""The answer kernel every mode shares: reply verdicts, name mentions, answer bias, LLM checks."""
