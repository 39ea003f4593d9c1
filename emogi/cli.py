"""What the `python -m emogi.<tool>` entry points share: expected failures reported in one line."""

from __future__ import annotations

import sys


def exit_status(action, errors: tuple[type[BaseException], ...]) -> int:
    """Run action(): 0 when it returns; when it raises one of `errors` (bad input, a missing or corrupt file: the
    failures a user can act on), 'error: <message>' on stderr and 1, without a traceback. Anything else is a bug
    and propagates."""
    try:
        action()
    except errors as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0
