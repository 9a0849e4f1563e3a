"""The one exception family: every error duelkit raises on purpose derives from `DuelkitError`, so the
command line (and any caller) catches one root and prints its message instead of a traceback.

The domain errors live beside the code that raises them (a record's `RecordError`, a file's
`FileProblem`, ...); this module holds the root and the usage error the command line maps to exit 2.
"""


class DuelkitError(Exception):
    """A failure that stops a command; the CLI prints it and exits non-zero."""


class UsageError(DuelkitError):
    """The command line itself is wrong (missing folder, bad option): exit code 2."""
