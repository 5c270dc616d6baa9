"""One module per `eleusis` subcommand; each defines ``register(subparsers)``.

``register`` adds its parser and sets ``run=<function(args) -> int>`` as default.
"""
