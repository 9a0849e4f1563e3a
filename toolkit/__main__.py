"""`python -m toolkit` runs the duelkit command line."""

from toolkit.cli import main

raise SystemExit(main())
