"""ncclcheck: the compiled tool, shipped in a wheel.

The wheel installs the binary itself as ``ncclcheck`` into the environment's bin directory;
``python -m ncclcheck ...`` runs that same binary (see __main__.py).
"""

import os
import sys
import sysconfig

__version__ = "@VERSION@"


def binary():
    """Path of the ncclcheck binary this package installed, or None."""
    schemes = [None]
    if sys.platform.startswith("linux"):
        schemes.append("posix_user")
    for scheme in schemes:
        paths = sysconfig.get_paths(scheme) if scheme else sysconfig.get_paths()
        for path in (os.path.join(paths["scripts"], "ncclcheck"),
                     os.path.join(paths["data"], "bin", "ncclcheck")):
            if os.path.isfile(path) and os.access(path, os.X_OK):
                return path
    return None
