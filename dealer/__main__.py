import signal
import sys

try:
    from dealer.app.cli import run
except KeyboardInterrupt:  # Ctrl-C while the command line is still loading
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    exec("")  # as dealer.app.cli.forget_caught_ctrl_c: exit 130, not death by SIGINT
    sys.exit(128 + signal.SIGINT)

sys.exit(run())
