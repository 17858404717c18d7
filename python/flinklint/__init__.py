"""flinklint, a linter and migration checker for Apache Flink SQL.

This package holds the ``flinklint`` binary (installed with the package's scripts); use it from
the command line, or as ``python -m flinklint``. :func:`find_flinklint_bin` returns its path.
"""

from __future__ import annotations

import os
import sys
import sysconfig

__all__ = ["find_flinklint_bin"]


def find_flinklint_bin() -> str:
    """The path of the flinklint binary installed with this package.

    The wheel puts it in the scripts folder of the installation scheme the package was
    installed with: the environment's, the user's (``pip install --user``) or a prefix's.
    """
    exe = "flinklint" + (sysconfig.get_config_var("EXE") or "")
    candidates = [sysconfig.get_path("scripts")]
    if sys.version_info >= (3, 10):
        user_scheme = sysconfig.get_preferred_scheme("user")
    elif os.name == "nt":
        user_scheme = "nt_user"
    elif sys.platform == "darwin" and sys._framework:  # type: ignore[attr-defined]
        user_scheme = "osx_framework_user"
    else:
        user_scheme = "posix_user"
    candidates.append(sysconfig.get_path("scripts", scheme=user_scheme))
    # pip install --target / --prefix: the scripts folder beside the package's tree.
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    candidates.append(os.path.join(package_root, "bin"))
    candidates.append(os.path.join(os.path.dirname(package_root), "bin"))
    for folder in candidates:
        path = os.path.join(folder, exe)
        if os.path.isfile(path):
            return path
    raise FileNotFoundError(
        "flinklint: the flinklint binary was not found; looked in " + ", ".join(candidates)
    )
