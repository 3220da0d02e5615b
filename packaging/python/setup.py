"""The wheel carries a compiled binary but no Python extension: the tag says which platforms it
runs on (py3-none-manylinux_2_17_<arch>: any Python 3, glibc >= 2.17, as check.sh proves) and
the binary goes into the environment's bin directory as ncclcheck."""

import os

from setuptools import setup
from wheel.bdist_wheel import bdist_wheel


class PlatformWheel(bdist_wheel):
    def finalize_options(self):
        super().finalize_options()
        self.root_is_pure = False

    def get_tag(self):
        return "py3", "none", "manylinux_2_17_" + os.environ["NCCLCHECK_WHEEL_ARCH"]


setup(cmdclass={"bdist_wheel": PlatformWheel}, data_files=[("bin", ["bin/ncclcheck"])])
