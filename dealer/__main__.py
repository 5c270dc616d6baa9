import signal
import sys

try:
    from dealer.app.cli import run
except KeyboardInterrupt:  # Ctrl-C while the command line is still loading
    sys.exit(128 + signal.SIGINT)

sys.exit(run())
