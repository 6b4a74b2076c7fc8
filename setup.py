"""Build the compiled core. Metadata lives in pyproject.toml; this file is the extension list.

Switches (environment variables):
  HOLDEM_DEBUG=1     bounds-checked Cython (boundscheck, wraparound, initializedcheck on), -O0 -g
  HOLDEM_SANITIZE=1  AddressSanitizer + UndefinedBehaviorSanitizer (implies HOLDEM_DEBUG); run
                     the tests with LD_PRELOAD=$(gcc -print-file-name=libasan.so)
  HOLDEM_ANNOTATE=1  write Cython's annotated HTML next to each .pyx (cython -a)
"""

import os
import sys

from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("HOLDEM_DEBUG") == "1" or os.environ.get("HOLDEM_SANITIZE") == "1"
SANITIZE = os.environ.get("HOLDEM_SANITIZE") == "1"
MSVC = sys.platform == "win32"

cflags: list[str] = []
ldflags: list[str] = []
if MSVC:
    cflags += ["/O2"]
else:
    cflags += ["-std=c99", "-O0", "-g"] if DEBUG else ["-std=c99", "-O3"]
    if SANITIZE:
        cflags += ["-fsanitize=address,undefined", "-fno-omit-frame-pointer",
                   "-fno-sanitize-recover=undefined"]
        ldflags += ["-fsanitize=address,undefined"]


def ext(name: str, *csources: str) -> Extension:
    return Extension(
        f"holdem.{name}",
        [f"holdem/{name}.pyx", *(f"csrc/{c}" for c in csources)],
        include_dirs=["csrc"],
        extra_compile_args=cflags,
        extra_link_args=ldflags,
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    )


extensions = [
    ext("_eval", "hd_eval.c", "hd_tables.c"),
    ext("_deck"),
    ext("_pots", "hd_pots.c"),
    ext("_hand"),
    ext("_equity", "hd_eval.c", "hd_tables.c"),
]
# Modules still being written on a branch are skipped until their .pyx lands.
extensions = [e for e in extensions if os.path.exists(e.sources[0])]

setup(
    ext_modules=cythonize(
        extensions,
        language_level=3,
        annotate=os.environ.get("HOLDEM_ANNOTATE") == "1",
        compiler_directives={
            "boundscheck": DEBUG,
            "wraparound": DEBUG,
            "initializedcheck": DEBUG,
            "cdivision": True,
            "embedsignature": True,
        },
    ),
)
