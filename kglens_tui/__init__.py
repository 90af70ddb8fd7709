"""KGLens TUI: probe what an LLM knows with a parameterized knowledge graph."""

__version__ = "0.1.0"
