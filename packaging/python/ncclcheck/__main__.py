"""python -m ncclcheck VERB ...: runs the binary the wheel installed, with the same arguments."""

import os
import sys

from . import binary


def main():
    path = binary()
    if path is None:
        sys.stderr.write("ncclcheck: the binary is missing from this environment's bin directory;"
                         " reinstall the wheel (pip install --force-reinstall ncclcheck)\n")
        return 3
    os.execv(path, [path] + sys.argv[1:])
    return 3


if __name__ == "__main__":
    sys.exit(main())
