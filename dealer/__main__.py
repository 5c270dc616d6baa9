import sys

from dealer.cli import main

sys.exit(main())
