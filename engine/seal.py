"""Sealing the secret rule (R2, G6): a commitment shown before the deal, checked after the reveal.

The commitment is SHA-256 over a domain tag, the caller's random nonce and the rule text.
The nonce comes from the caller (``secrets.token_hex(16)`` in dealer code): engine/ stays
pure, with no randomness of its own. A Seal never holds or prints the rule text.

>>> s = seal('if prev.red then card.black else card.red', nonce='5f2b' * 8)
>>> len(s.commitment), 'prev' in repr(s) or 'prev' in str(s)
(64, False)
>>> verify(s, 'if prev.red then card.black else card.red', '5f2b' * 8)
True
>>> verify(s.commitment, 'card.red', '5f2b' * 8)
False
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass

__all__ = ["MIN_NONCE_LENGTH", "Seal", "SealError", "seal", "verify"]

MIN_NONCE_LENGTH = 16  # characters; secrets.token_hex(16) gives 32
_DOMAIN = b"eleusis-rule-seal/v1\x00"


class SealError(ValueError):
    """A nonce or commitment that cannot seal a rule safely."""


@dataclass(frozen=True, slots=True)
class Seal:
    """The commitment to a secret rule: 64 lowercase hex digits, safe to show to everyone."""

    commitment: str

    def __post_init__(self) -> None:
        c = self.commitment
        if len(c) != 64 or any(ch not in "0123456789abcdef" for ch in c):
            raise SealError(f"a commitment is 64 lowercase hex digits, got {c!r}")

    def __str__(self) -> str:
        return f"sha256:{self.commitment}"

    def __repr__(self) -> str:
        return f"Seal({self.commitment!r})"


def _digest(text: str, nonce: str) -> str:
    if not isinstance(nonce, str) or len(nonce) < MIN_NONCE_LENGTH:
        raise SealError(f"the nonce must be a string of at least {MIN_NONCE_LENGTH} random characters "
                        f"(e.g. secrets.token_hex(16)); got one of length "
                        f"{len(nonce) if isinstance(nonce, str) else type(nonce).__name__}")
    if "\x00" in nonce:
        raise SealError("the nonce must not contain NUL characters")
    return hashlib.sha256(_DOMAIN + nonce.encode("utf-8") + b"\x00" + text.encode("utf-8")).hexdigest()


def seal(text: str, nonce: str) -> Seal:
    """Commit to ``text`` (R2): show the Seal before the deal, reveal text and nonce after (G6)."""
    return Seal(_digest(text, nonce))


def verify(seal_or_commitment: Seal | str, text: str, nonce: str) -> bool:
    """True when ``text`` and ``nonce`` are what was sealed (the revealed rule is the sealed one)."""
    if isinstance(seal_or_commitment, Seal):
        expected = seal_or_commitment.commitment
    else:
        expected = seal_or_commitment.strip().lower().removeprefix("sha256:")
    try:
        actual = _digest(text, nonce)
    except SealError:
        return False
    return hmac.compare_digest(expected.encode("utf-8"), actual.encode("ascii"))
