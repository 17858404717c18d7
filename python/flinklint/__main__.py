"""``python -m flinklint``: runs the flinklint binary that this package installed."""

from __future__ import annotations

import os
import subprocess
import sys

from flinklint import find_flinklint_bin


def main() -> int:
    """Runs the binary with this process's arguments and returns its exit code."""
    binary = find_flinklint_bin()
    if sys.platform == "win32":
        return subprocess.run([binary, *sys.argv[1:]]).returncode
    os.execv(binary, [binary, *sys.argv[1:]])
    return 1  # not reached: execv replaces the process


if __name__ == "__main__":
    sys.exit(main())
