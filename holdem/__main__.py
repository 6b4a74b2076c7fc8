"""``python -m holdem``: the command line (see :mod:`holdem.cli`)."""

from holdem.cli import main

raise SystemExit(main())
