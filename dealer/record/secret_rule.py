"""How the secret rule reaches the dealer without anyone at the table seeing it (R1, R2, G6).

- ``--rule-file FILE``: the rule text (or a library id) in a file; only its name shows.
- ``--rule -``: typed at a hidden prompt (getpass) when the terminal is a person's, else read
  from standard input (``eleusis play --rule - < secret.txt``, or a pipe).
- neither: the machine draws an easy library rule itself, and says nothing of it.

``--rule TEXT`` is refused: the text would show to anyone who lists the processes (``ps``),
in the shell's history, and in the terminal's scrollback, before the reveal. There is no
flag that allows it: a person who wants the rule visible can write it in a file.
"""

from __future__ import annotations

import getpass
import sys
from pathlib import Path

from dealer.app.inputs import InputError, read_text_file

__all__ = ["REFUSED", "MAX_RULE_FILE_BYTES", "read_secret_rule"]

MAX_RULE_FILE_BYTES = 100_000  # a rule is at most 10,000 characters (engine/rules limits)
REFUSED = ("--rule TEXT would show the secret rule to anyone who lists the processes (ps) and in the shell "
           "history (R2). Give it with --rule-file FILE, or --rule - to type it unseen (or pipe it on "
           "standard input), or leave --rule out and the machine draws one")


def read_secret_rule(rule: str | None, rule_file: Path | None) -> str | None:
    """The rule text from ``--rule -`` or ``--rule-file``; None when the machine is to draw one.
    Raises :class:`~dealer.app.inputs.InputError` (said by the command, exit 2) on anything else."""
    if rule is not None and rule_file is not None:
        raise InputError("give the rule once: --rule - or --rule-file FILE, not both")
    if rule is not None and rule != "-":
        raise InputError(REFUSED)
    if rule_file is not None:
        text = read_text_file(rule_file, "--rule-file", MAX_RULE_FILE_BYTES)
    elif rule == "-":
        if sys.stdin is not None and sys.stdin.isatty():
            try:
                text = getpass.getpass("The secret rule (a library id or a rule text; nothing shows): ")
            except EOFError:
                text = ""
        else:
            text = read_text_file("-", "--rule -", MAX_RULE_FILE_BYTES)
    else:
        return None
    text = text.strip()
    if not text:
        where = f"--rule-file {rule_file}" if rule_file is not None else "--rule -"
        raise InputError(f"{where}: no rule given (the text is empty)")
    return text
