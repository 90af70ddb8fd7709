"""Endpoint URLs without secrets: refuse a base URL that carries credentials, and redact any URL
before it is shown.

Credentials in a base URL (``http://user:pass@host/v1``, ``?api-key=...``, ``?token=...``) would be
stored with the run (its settings, manifest and target label) and printed on every error line, so
a base URL with them is refused: the key belongs in an environment variable (``--api-key-env``).
"""

from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit, urlunsplit

from kglens_tui.core.errors import KGLensError

REDACTED = "***"

_SECRET_PARTS = frozenset(
    {
        "key",
        "token",
        "secret",
        "password",
        "pass",
        "passwd",
        "pwd",
        "auth",
        "sig",
        "signature",
        "credential",
        "credentials",
        "code",
        "session",
        "jwt",
        "bearer",
    }
)
_SECRET_WORDS = ("apikey", "token", "secret", "password", "passwd", "credential")
ADVICE = (
    "put the key in an environment variable and name it with --api-key-env "
    "(it is sent as a Bearer token)"
)


class BaseURLError(KGLensError, ValueError):
    """A base URL that is malformed or carries credentials; the message shows it redacted."""


def is_secret_name(name: str) -> bool:
    """Whether a query parameter name looks like it holds a credential (api-key, token, sig...).

    >>> [is_secret_name(n) for n in ("api-key", "access_token", "api-version", "model")]
    [True, True, False, False]
    """
    lowered = unquote(name).lower()
    parts = [p for p in re.split(r"[^a-z0-9]+", lowered) if p]
    joined = "".join(parts)
    return any(p in _SECRET_PARTS for p in parts) or any(w in joined for w in _SECRET_WORDS)


def _redact_params(text: str) -> tuple[str, list[str]]:
    """A query string (or fragment) with secret values replaced, and the secret names."""
    out, names = [], []
    for part in text.split("&"):
        name, eq, _value = part.partition("=")
        if is_secret_name(name):
            names.append(unquote(name))
            out.append(f"{name}{eq or '='}{REDACTED}")
        else:
            out.append(part)
    return "&".join(out), names


def redact_url(url: str) -> str:
    """The URL with any user:password@ and secret query values replaced by ***."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<a malformed URL>"
    out = url
    if "@" in parts.netloc:
        host = parts.netloc.rpartition("@")[2]
        out = out.replace(parts.netloc, f"{REDACTED}@{host}", 1)
    for piece in (parts.query, parts.fragment):
        if piece:
            out = out.replace(piece, _redact_params(piece)[0], 1)
    return out


def strip_credentials(url: str) -> str:
    """The URL without user:password@ and without secret query parameters (for settings stored
    before credentials were refused); a malformed URL comes back as it is."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return url

    def keep(text: str) -> str:
        return "&".join(p for p in text.split("&") if p and not is_secret_name(p.partition("=")[0]))

    host = parts.netloc.rpartition("@")[2]
    return urlunsplit((parts.scheme, host, parts.path, keep(parts.query), keep(parts.fragment)))


def check_base_url(url: str) -> str:
    """Return `url` if it is an http(s) URL with a host and no credentials, else raise
    BaseURLError with one line that shows the URL redacted."""
    shown = redact_url(url)
    try:
        parts = urlsplit(url.strip())
        hostname = parts.hostname
        parts.port  # noqa: B018 - raises ValueError for a port out of range
    except ValueError:
        raise BaseURLError(f"the base URL {shown} is not a valid URL") from None
    if parts.scheme not in ("http", "https") or not hostname:
        raise BaseURLError(
            f"the base URL {shown} must be http:// or https:// with a host, "
            "e.g. http://127.0.0.1:8080/v1"
        )
    secrets = _redact_params(parts.query)[1] + _redact_params(parts.fragment)[1]
    found = (["user:password@"] if "@" in parts.netloc else []) + [f"?{n}=" for n in secrets]
    if found:
        raise BaseURLError(
            f"the base URL {shown} carries credentials ({', '.join(found)}), which would be "
            f"stored with the run: remove them and {ADVICE}"
        )
    return url


_URL_IN_TEXT = re.compile(r"\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s'\"<>()\[\]]+")


def redact_text(text: str) -> str:
    """`text` with every URL in it redacted (for labels and messages stored before credentials
    were refused)."""

    def redact(match: re.Match[str]) -> str:
        url = match.group().rstrip(",.;:!?")
        return redact_url(url) + match.group()[len(url) :]

    return _URL_IN_TEXT.sub(redact, text)
