"""Secret redaction: every text the journal writes passes through a ``Redactor`` first."""

from __future__ import annotations

import html
import json
import os
import re
import threading
from collections.abc import Iterable, Mapping

from pydantic import JsonValue

REDACTED = "[REDACTED]"
MIN_ENV_SECRET_LENGTH = 6
"""Environment values shorter than this are not collected (``true``, ``1``, ``none`` are not secrets)."""
MIN_SECRET_LENGTH = 4
"""Explicitly added secrets must be at least this long: shorter ones would redact ordinary words."""

_SECRET_NAME = re.compile(r"(API_?KEY$|(^|_)TOKEN$|SECRET|PASSWORD|PASSWD|PRIVATE_KEY)", re.IGNORECASE)


def looks_secret(name: str) -> bool:
    """Whether an environment variable's name says its value is a secret (``*_API_KEY``, ``*_TOKEN``…)."""
    return bool(_SECRET_NAME.search(name))


def _variants(secret: str) -> set[str]:
    """The secret as written, and as it reads once escaped into JSON or XML text."""
    return {
        secret,
        json.dumps(secret)[1:-1],
        json.dumps(secret, ensure_ascii=False)[1:-1],
        html.escape(secret, quote=True),
        html.escape(secret, quote=False),
    }


class Redactor:
    """Replaces registered secret values with ``[REDACTED]``; thread-safe, values only grow."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        self._lock = threading.Lock()
        self._secrets: set[str] = set()
        self._pattern: re.Pattern[str] | None = None
        for secret in secrets:
            self.add(secret)

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> Redactor:
        """A redactor holding every value (≥ 6 characters) of a variable whose name looks secret."""
        env = os.environ if environ is None else environ
        values = (v.strip() for k, v in env.items() if looks_secret(k))
        return cls(v for v in values if len(v) >= MIN_ENV_SECRET_LENGTH)

    def add(self, value: str | None) -> None:
        """Register a secret; None/blank is ignored, a value under 4 characters is refused (ValueError)."""
        if value is None or not value.strip():
            return
        if len(value) < MIN_SECRET_LENGTH:
            raise ValueError(f"a secret must be at least {MIN_SECRET_LENGTH} characters long")
        with self._lock:
            new = _variants(value) - self._secrets
            if new:
                self._secrets |= new
                # Longest first, so a secret containing another is replaced whole.
                ordered = sorted(self._secrets, key=len, reverse=True)
                self._pattern = re.compile("|".join(re.escape(s) for s in ordered))

    def __len__(self) -> int:
        return len(self._secrets)

    def redact(self, text: str) -> str:
        """``text`` with every secret (and its JSON/XML-escaped form) replaced by ``[REDACTED]``."""
        pattern = self._pattern
        return text if pattern is None else pattern.sub(REDACTED, text)

    def redact_json(self, value: JsonValue) -> JsonValue:
        """A copy of a JSON value with every string (keys included) redacted; the structure stays valid."""
        if self._pattern is None:
            return value
        if isinstance(value, str):
            return self.redact(value)
        if isinstance(value, list):
            return [self.redact_json(v) for v in value]
        if isinstance(value, dict):
            return {self.redact(k): self.redact_json(v) for k, v in value.items()}
        return value
