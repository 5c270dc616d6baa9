"""The sealed envelope: the secret rule and its nonce, kept with the recording but unreadable
until the reveal (R2, G6), so that an interrupted round can still be revealed and verified.

What a glance at the laptop can and cannot see (the threat model, honestly):

- The recording folder holds ``rule.sealed``: the rule and nonce encrypted (a SHA-256
  HMAC keystream with a random IV, then an HMAC tag over it: encrypt-then-MAC, standard
  library only), written with mode 0600. ``cat``, ``grep -r``, a file browser's preview or
  a copy of the folder handed to a player show no rule text and no rule id.
- Nor its length: the plain text is padded to a fixed size (:data:`PADDED_SIZES`, 1 KiB for
  every library rule and any rule up to about 900 characters), so every envelope of the
  library has the same size on disk. A longer rule, written by hand, shows only which of
  the few larger sizes it needed. Envelopes written before the padding (version 1) still open.
- The key is not in the folder: it lives in a per-user key store,
  ``$ELEUSIS_KEY_DIR`` or ``$XDG_STATE_HOME/eleusis/keys`` (default
  ``~/.local/state/eleusis/keys``), one file ``<commitment>.key`` of mode 0600 in a
  folder of mode 0700. The key is deleted once the rule has been revealed in the log.
- It does NOT stop someone who uses the dealer's own account on purpose while the round
  runs (they can read the key and the envelope, or the dealer's memory): the machine
  keeps the secret from glances, shared folders and other accounts, not from its owner.
  The seal (the commitment every player photographed before the deal) is what keeps the
  dealer honest: no one can change the rule afterwards without the seal failing.

>>> import tempfile, os
>>> d = Path(tempfile.mkdtemp()); os.environ[KEY_DIR_ENV] = str(d / 'keys')
>>> from engine.seal import seal
>>> c = seal('alternate-colour', 'n' * 32).commitment
>>> path = seal_envelope(d, 'alternate-colour', 'n' * 32, c)
>>> b'alternate' in path.read_bytes(), oct(path.stat().st_mode & 0o777)
(False, '0o600')
>>> open_envelope(d)
('alternate-colour', 'nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn')
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from pathlib import Path

from engine.seal import verify

__all__ = ["ENVELOPE_FILE", "KEY_DIR_ENV", "PADDED_SIZES", "EnvelopeError", "forget_key", "key_dir", "open_envelope",
           "padded_size", "seal_envelope"]

ENVELOPE_FILE = "rule.sealed"
KEY_DIR_ENV = "ELEUSIS_KEY_DIR"
_MAGIC_PREFIX = b"ELEUSIS-ENVELOPE/"
_MAGIC = _MAGIC_PREFIX + b"2\n"  # 2: padded plain text (a 4-byte length, the JSON, then zeros)
_VERSIONS = (b"1", b"2")  # 1: unpadded, still opened
PADDED_SIZES = (1024, 4096, 16384, 65536)  # then whole multiples of the last
_LENGTH_BYTES = 4
_IV_BYTES = 16
_TAG_BYTES = 32
_KEY_BYTES = 32


class EnvelopeError(ValueError):
    """An envelope that cannot be opened: no key on this machine, or altered bytes."""


def key_dir() -> Path:
    """Where this user's round keys are kept (outside every recording folder)."""
    if os.environ.get(KEY_DIR_ENV):
        return Path(os.environ[KEY_DIR_ENV])
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "eleusis" / "keys"


def _key_path(commitment: str) -> Path:
    return key_dir() / f"{commitment}.key"


def _keystream(key: bytes, iv: bytes, length: int) -> bytes:
    blocks = []
    for counter in range((length + 31) // 32):
        blocks.append(hmac.new(key, b"stream" + iv + counter.to_bytes(8, "big"), hashlib.sha256).digest())
    return b"".join(blocks)[:length]


def padded_size(length: int) -> int:
    """The size the plain text of ``length`` bytes is padded to (its 4-byte length included).

    >>> padded_size(60), padded_size(1020), padded_size(1021), padded_size(200_000)
    (1024, 1024, 4096, 262144)
    """
    need = length + _LENGTH_BYTES
    for size in PADDED_SIZES:
        if need <= size:
            return size
    last = PADDED_SIZES[-1]
    return -(-need // last) * last


def _pad(plain: bytes) -> bytes:
    body = len(plain).to_bytes(_LENGTH_BYTES, "big") + plain
    return body + bytes(padded_size(len(plain)) - len(body))


def _unpad(padded: bytes, path: Path) -> bytes:
    length = int.from_bytes(padded[:_LENGTH_BYTES], "big")
    if len(padded) < _LENGTH_BYTES + length:
        raise EnvelopeError(f"{path}: the envelope does not hold a rule and a nonce")
    return padded[_LENGTH_BYTES:_LENGTH_BYTES + length]


def _write_private(path: Path, data: bytes) -> None:
    """Write ``data`` to a new file readable by its owner only (mode 0600), flushed to disk."""
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    tmp.replace(path)


def seal_envelope(folder: Path, rule: str, nonce: str, commitment: str) -> Path:
    """Encrypt ``rule`` and ``nonce`` into ``folder/rule.sealed``; keep the key in the key store."""
    key = secrets.token_bytes(_KEY_BYTES)
    keys = key_dir()
    keys.mkdir(parents=True, exist_ok=True, mode=0o700)
    _write_private(_key_path(commitment), key.hex().encode("ascii") + b"\n")
    iv = secrets.token_bytes(_IV_BYTES)
    plain = _pad(json.dumps({"rule": rule, "nonce": nonce}, ensure_ascii=False).encode("utf-8"))
    cipher = bytes(a ^ b for a, b in zip(plain, _keystream(key, iv, len(plain)), strict=True))
    head = _MAGIC + commitment.encode("ascii") + b"\n"
    tag = hmac.new(key, b"tag" + head + iv + cipher, hashlib.sha256).digest()
    path = Path(folder) / ENVELOPE_FILE
    _write_private(path, head + iv + tag + cipher)
    return path


def open_envelope(folder: Path) -> tuple[str, str]:
    """The sealed ``(rule, nonce)`` of the recording in ``folder``, checked against its seal."""
    path = Path(folder) / ENVELOPE_FILE
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise EnvelopeError(f"{path}: cannot read the sealed rule ({exc.strerror or exc})") from None
    if not data.startswith(_MAGIC_PREFIX) or data.count(b"\n", 0, 200) < 2:
        raise EnvelopeError(f"{path}: not a sealed rule envelope")
    magic_end = data.index(b"\n") + 1
    version = data[len(_MAGIC_PREFIX):magic_end - 1]
    if version not in _VERSIONS:
        shown = version.decode("ascii", "replace")
        raise EnvelopeError(f"{path}: envelope version {shown!r} is not one this dealer opens "
                            f"(it opens versions {', '.join(v.decode() for v in _VERSIONS)}); use the dealer that sealed it")
    line_end = data.index(b"\n", magic_end)
    commitment = data[magic_end:line_end].decode("ascii", "replace")
    rest = data[line_end + 1:]
    iv, tag, cipher = rest[:_IV_BYTES], rest[_IV_BYTES:_IV_BYTES + _TAG_BYTES], rest[_IV_BYTES + _TAG_BYTES:]
    key_file = _key_path(commitment)
    try:
        key = bytes.fromhex(key_file.read_text(encoding="ascii").strip())
    except (OSError, ValueError):
        raise EnvelopeError(f"{path}: the key of this round is not on this machine (looked for {key_file}); "
                            "the rule can only be revealed where the round was dealt") from None
    head = data[:line_end + 1]
    if not hmac.compare_digest(tag, hmac.new(key, b"tag" + head + iv + cipher, hashlib.sha256).digest()):
        raise EnvelopeError(f"{path}: the envelope was altered (its tag does not match)")
    plain = bytes(a ^ b for a, b in zip(cipher, _keystream(key, iv, len(cipher)), strict=True))
    if version != b"1":
        plain = _unpad(plain, path)
    try:
        content = json.loads(plain.decode("utf-8"))
        rule, nonce = content["rule"], content["nonce"]
    except (ValueError, KeyError, TypeError):
        raise EnvelopeError(f"{path}: the envelope does not hold a rule and a nonce") from None
    if not (isinstance(rule, str) and isinstance(nonce, str) and verify(commitment, rule, nonce)):
        raise EnvelopeError(f"{path}: the sealed rule does not match its seal {commitment}")
    return rule, nonce


def forget_key(commitment: str) -> None:
    """Delete a round's key once its rule is revealed in the log (it guards nothing any more)."""
    try:
        _key_path(commitment).unlink()
    except FileNotFoundError:
        pass
