"""Shared vocabulary every layer may import: safe text, and (later) enums, intervals and errors."""
