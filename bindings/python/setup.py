"""Build the boxlint wheel with the C library inside it.

`pip wheel bindings/python` runs this: the project's own CMake build (the repository two levels
up) compiles libboxlint and the boxlint command in release mode, and both go into the package:
``boxlint/libboxlint.so.0`` (found by ``_ffi.load_library`` next to the package, so no
``BOXLINT_LIBRARY`` and no system libboxlint are needed) and ``boxlint/bin/boxlint`` (what
``python -m boxlint`` runs). The version is CMake's ``project(VERSION)``, read from the top-level
CMakeLists.txt, the one place it is written.

The build links libpcre2-8, libidn2 and libunistring (and the command's libjansson) statically
(``BOXLINT_STATIC_DEPS=ON``): both files need only the C library. The wheel is then tagged
``manylinux_X_Y_<arch>`` (PEP 600), X.Y being the highest ``GLIBC_X.Y`` symbol version the two
files use, read here from ``objdump -T``; a file that needs any shared library other than libc
and libm stops the build rather than claim a tag it does not meet.
``tests/packaging/wheel_test.sh`` checks the built wheel against auditwheel's policy for the tag.
"""
import os
import platform
import re
import shutil
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def project_version():
    path = os.path.join(ROOT, "CMakeLists.txt")
    if not os.path.exists(path):
        sys.exit("boxlint: the wheel is built from the boxlint source tree (pip wheel "
                 "bindings/python in a clone); %s is missing" % path)
    m = re.search(r"project\(boxlint\s+VERSION\s+([0-9.]+)", open(path, encoding="utf-8").read())
    if not m:
        sys.exit("boxlint: no project(boxlint VERSION x.y.z) in " + path)
    return m.group(1)


class BuildWithLibrary(build_py):
    """build_py, then the C library and the command from CMake into the package."""

    def run(self):
        super().run()
        build = os.environ.get("BOXLINT_WHEEL_BUILD_DIR", os.path.join(HERE, "build", "cmake"))
        jobs = str(os.cpu_count() or 2)
        subprocess.check_call(["cmake", "-S", ROOT, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                               "-DBOXLINT_BUILD_TESTS=OFF", "-DBOXLINT_BUILD_BENCH=OFF",
                               "-DBOXLINT_INSTALL=OFF", "-DBOXLINT_STATIC_DEPS=ON"])
        subprocess.check_call(["cmake", "--build", build, "-j", jobs, "--target", "boxlint",
                               "boxlint_cli"])
        pkg = os.path.join(self.build_lib, "boxlint")
        lib = os.path.join(build, "lib", "libboxlint.so.0")
        if not os.path.exists(lib):
            sys.exit("boxlint: the CMake build made no %s" % lib)
        shutil.copy2(os.path.realpath(lib), os.path.join(pkg, "libboxlint.so.0"))
        os.makedirs(os.path.join(pkg, "bin"), exist_ok=True)
        shutil.copy2(os.path.join(build, "cli", "boxlint"), os.path.join(pkg, "bin", "boxlint"))
        self.distribution.platform_tag = manylinux_tag(
            [os.path.join(pkg, "libboxlint.so.0"), os.path.join(pkg, "bin", "boxlint")])


# Every manylinux policy lets a wheel need these (auditwheel's lib_whitelist holds more, but
# the self-contained build needs no more than these).
C_LIBRARY = {"libc.so.6", "libm.so.6"}


def manylinux_tag(paths):
    """manylinux_X_Y_<arch> for ELF files that need only the C library, X.Y the highest GLIBC_X.Y
    symbol version they use (PEP 600: such a wheel works on any distribution with glibc >= X.Y)."""
    highest = (2, 5)
    for path in paths:
        dynamic = subprocess.run(["readelf", "-d", "-W", path], check=True, text=True,
                                 stdout=subprocess.PIPE).stdout
        needed = set(re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", dynamic))
        if needed - C_LIBRARY:
            sys.exit("boxlint: %s needs %s beyond the C library: built without "
                     "BOXLINT_STATIC_DEPS? A manylinux tag would claim what the wheel does not do"
                     % (path, ", ".join(sorted(needed - C_LIBRARY))))
        symbols = subprocess.run(["objdump", "-T", path], check=True, text=True,
                                 stdout=subprocess.PIPE).stdout
        for major, minor in re.findall(r"\*UND\*\s+\S+\s+\(?GLIBC_(\d+)\.(\d+)", symbols):
            highest = max(highest, (int(major), int(minor)))
    return "manylinux_%d_%d_%s" % (highest[0], highest[1], platform.machine())


class BinaryDistribution(Distribution):
    """The wheel holds compiled code: a platform wheel, not a pure one."""

    def has_ext_modules(self):
        return True


try:
    from wheel.bdist_wheel import bdist_wheel

    class PlatformWheel(bdist_wheel):
        def get_tag(self):
            _, _, plat = super().get_tag()
            # ctypes: any Python 3, no ABI; the manylinux tag build_py derived from the files
            return "py3", "none", getattr(self.distribution, "platform_tag", plat)

    extra = {"bdist_wheel": PlatformWheel}
except ImportError:  # building an sdist or installing without the wheel package
    extra = {}

setup(version=project_version(), distclass=BinaryDistribution,
      cmdclass={"build_py": BuildWithLibrary, **extra})
