"""Sealing the rule (R2, G6): commit before the deal, verify after the reveal."""

from __future__ import annotations

import hashlib

import pytest

from engine.seal import MIN_NONCE_LENGTH, Seal, SealError, seal, verify

RULE = "if prev.red then card.black else card.red"
NONCE = "0123456789abcdef0123456789abcdef"


def test_seal_is_sha256_over_tag_nonce_and_text() -> None:
    # given a rule and a nonce, when sealed, then the commitment is the documented SHA-256
    expected = hashlib.sha256(b"eleusis-rule-seal/v1\x00" + NONCE.encode() + b"\x00" + RULE.encode()).hexdigest()
    assert seal(RULE, NONCE).commitment == expected


def test_seal_never_shows_the_rule_text() -> None:
    # given a sealed rule, when printed either way, then no part of the rule text shows (R2)
    s = seal(RULE, NONCE)
    for shown in (str(s), repr(s), f"{s}"):
        assert "prev" not in shown and "card" not in shown and NONCE not in shown
    assert str(s) == f"sha256:{s.commitment}"
    assert repr(s) == f"Seal({s.commitment!r})" and Seal(s.commitment) == s


@pytest.mark.parametrize(("text", "nonce", "expected"), [
    (RULE, NONCE, True),
    (RULE + " ", NONCE, False),                       # one more space: another rule
    ("if prev.red then card.red else card.black", NONCE, False),
    (RULE, NONCE[:-1] + "0", False),                  # another nonce
    (RULE, "short", False),                           # a nonce too short never verifies
])
def test_verify_accepts_only_the_sealed_text_and_nonce(text: str, nonce: str, expected: bool) -> None:
    # given a seal, when a revealed text and nonce are verified (G6), then only the sealed pair passes
    s = seal(RULE, NONCE)
    assert verify(s, text, nonce) is expected
    assert verify(s.commitment, text, nonce) is expected
    assert verify(str(s).upper().replace("SHA256:", "sha256:"), text, nonce) is expected


def test_same_rule_with_two_nonces_gives_two_commitments() -> None:
    # given one rule sealed twice with different nonces, then the commitments differ (no guessing by table)
    assert seal(RULE, NONCE) != seal(RULE, NONCE[::-1])


@pytest.mark.parametrize("nonce", ["", "abc", "x" * (MIN_NONCE_LENGTH - 1), "a" * 20 + "\x00"])
def test_weak_nonce_is_refused(nonce: str) -> None:
    # given a nonce that is too short (or holds NUL), when sealing, then SealError (a ValueError) says so
    with pytest.raises(SealError) as caught:
        seal(RULE, nonce)
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize("commitment", ["", "abc", "G" * 64, "A" * 64])
def test_seal_takes_only_a_hex_commitment(commitment: str) -> None:
    # given something that is not 64 lowercase hex digits, when made a Seal, then SealError
    with pytest.raises(SealError):
        Seal(commitment)


def test_seal_module_doctests() -> None:
    import doctest

    import engine.seal

    assert doctest.testmod(engine.seal).failed == 0


@pytest.mark.parametrize("commitment", ["", "sha256:", "é" * 64, "not hex at all"])
def test_verify_of_a_malformed_commitment_is_false(commitment: str) -> None:
    # given something that is no commitment, when verified, then False (never an exception)
    assert verify(commitment, RULE, NONCE) is False
