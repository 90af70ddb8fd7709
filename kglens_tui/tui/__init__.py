"""Textual user interface: the only layer that imports textual."""
