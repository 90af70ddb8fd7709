"""JSON text as KGLens stores it: non-ASCII kept as written, one encoder for the process."""

from __future__ import annotations

import json

to_json = json.JSONEncoder(ensure_ascii=False).encode
"""`json.dumps(value, ensure_ascii=False)`, without building an encoder for each value (an import
encodes every entity three times; a probing iteration every question's answers)."""
