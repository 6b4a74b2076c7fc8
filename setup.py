"""Build the compiled core. Metadata lives in pyproject.toml; this file is the extension list.

Switches (environment variables):
  HOLDEM_DEBUG=1     bounds-checked Cython (boundscheck, wraparound, initializedcheck on), -O0 -g
  HOLDEM_SANITIZE=1  AddressSanitizer + UndefinedBehaviorSanitizer (implies HOLDEM_DEBUG); run
                     the tests with LD_PRELOAD="$(gcc -print-file-name=libasan.so)
                     $(gcc -print-file-name=libstdc++.so)" (see README, Development)
  HOLDEM_SANITIZE=thread
                     ThreadSanitizer (-O1 -g): run the tests with
                     LD_PRELOAD=$(gcc -print-file-name=libtsan.so) (see tools/tsan.sh)
  HOLDEM_ANNOTATE=1  write Cython's annotated HTML next to each .pyx (cython -a)
"""

import copy
import os
import sys
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

DEBUG = os.environ.get("HOLDEM_DEBUG") == "1" or os.environ.get("HOLDEM_SANITIZE") == "1"
SANITIZE = os.environ.get("HOLDEM_SANITIZE") == "1"
TSAN = os.environ.get("HOLDEM_SANITIZE") == "thread"
if os.environ.get("HOLDEM_SANITIZE", "") not in ("", "0", "1", "thread"):
    sys.exit(f"HOLDEM_SANITIZE must be 1 (ASan + UBSan) or thread (TSan), "
             f"got {os.environ['HOLDEM_SANITIZE']!r}")
MSVC = sys.platform == "win32"

cflags: list[str] = []
ldflags: list[str] = []
if MSVC:
    # MSVC's default C mode has the C99 features csrc/ uses (stdint.h, mixed declarations,
    # `//` comments); `inline` is spelled `static __inline` through HD_INLINE (hd_common.h) and
    # the bit intrinsics come from <intrin.h>. No -std flag: MSVC has no C99 mode to ask for,
    # and its /std:c11 mode is not needed. /utf-8 reads the sources as UTF-8.
    cflags += ["/utf-8"]
    if DEBUG:
        cflags += ["/Od", "/Zi"]
        ldflags += ["/DEBUG"]
    else:
        cflags += ["/O2"]
    if SANITIZE or TSAN:
        sys.exit("HOLDEM_SANITIZE needs gcc or clang; it is not available with MSVC")
else:
    if DEBUG:
        cflags += ["-std=c99", "-O0", "-g"]
    elif TSAN:  # optimized a little (TSan's advice), with line numbers for its reports
        cflags += ["-std=c99", "-O1", "-g"]
    else:
        cflags += ["-std=c99", "-O3", "-g0"]
    # Each extension exports only its PyInit_* entry point (PyMODINIT_FUNC is marked visible):
    # the csrc/ functions it links are private to it, called directly, not through the PLT,
    # and cannot clash with another library's symbols.
    cflags += ["-fvisibility=hidden"]
    if TSAN:
        cflags += ["-fsanitize=thread", "-fno-omit-frame-pointer"]
        ldflags += ["-fsanitize=thread"]
    if SANITIZE:
        # -fno-wrapv: Python's own CFLAGS (sysconfig), which setuptools puts at the front of
        # every compile line, include -fwrapv. That makes signed overflow defined (it wraps),
        # so UBSan's signed-integer-overflow check never fires and an int64 chip sum that
        # overflows in csrc/ or a .pyx goes unseen. extra_compile_args come last on the line,
        # and the last of -fwrapv/-fno-wrapv wins, so this turns the check back on. Sanitizer
        # builds only: release builds keep Python's flags as they are.
        cflags += ["-fsanitize=address,undefined", "-fno-omit-frame-pointer",
                   "-fno-sanitize-recover=undefined", "-fno-wrapv"]
        ldflags += ["-fsanitize=address,undefined"]
    if not DEBUG and not TSAN and sys.platform.startswith("linux"):
        # Release builds drop the symbol tables: the .so files shrink about tenfold (the
        # exported PyInit_* entry points stay). Debug and sanitizer builds keep them.
        ldflags += ["-s"]


def ext(name: str, *csources: str) -> Extension:
    """The extension ``holdem.<name>`` (``name`` dotted inside subpackages: ``hand._compiled``).

    With ``hd_tables_shared.c`` among its sources it is built with HD_TABLES_SHARED: it reads
    the evaluator's tables linked once, into ``holdem._eval`` (csrc/hd_eval.h)."""
    macros = [("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")]
    if "hd_tables_shared.c" in csources:
        macros.append(("HD_TABLES_SHARED", "1"))
    return Extension(
        f"holdem.{name}",
        [f"holdem/{name.replace('.', '/')}.pyx", *(f"csrc/{c}" for c in csources)],
        include_dirs=["csrc"],
        extra_compile_args=cflags,
        extra_link_args=ldflags,
        define_macros=macros,
    )


extensions = [
    ext("_eval", "hd_eval.c", "hd_tables.c"),
    ext("_deck"),
    ext("_pots", "hd_pots.c"),
    ext("hand._compiled", "hd_hand.c", "hd_pots.c", "hd_eval.c", "hd_tables_shared.c"),
    ext("table._loop"),
    ext("_equity", "hd_tables_shared.c"),
    ext("_vector", "hd_hand.c", "hd_pots.c", "hd_eval.c", "hd_tables_shared.c", "hd_agents.c"),
]
# Plain Python modules compiled as they are (the .py stays the source mypy checks, and works
# uncompiled): the PokerStars import's hot path. Built with Python's semantics kept (bounds
# checks, negative indices, Python division), unlike the .pyx modules' directives below.
python_extensions = [
    Extension(f"holdem.{name}", [f"holdem/{name}.py"], extra_compile_args=cflags,
              extra_link_args=ldflags)
    for name in ("_pokerstars_reader",)
]

# A switch of flavour (release / debug / sanitize / tsan) must rebuild everything: drop the generated
# C of the last build when the flavour differs, so Cython and the compiler both run again.
FLAVOUR = f"debug={int(DEBUG)} sanitize={int(SANITIZE)}" + (" tsan=1" if TSAN else "")
STAMP = os.path.join("build", "holdem-flavour.txt")
if os.path.exists("build") or any(os.path.exists(e.sources[0][:-4] + ".c") for e in extensions):
    previous = Path(STAMP).read_text() if os.path.exists(STAMP) else "debug=0 sanitize=0"
    if previous != FLAVOUR:
        for e in extensions + python_extensions:
            generated = os.path.splitext(e.sources[0])[0] + ".c"
            if os.path.exists(generated):
                os.remove(generated)
os.makedirs("build", exist_ok=True)
Path(STAMP).write_text(FLAVOUR)



class build_py_with_headers(build_py):
    """Also ship the C headers (csrc/*.h) inside the package, next to the .pxd files that
    include them, so Cython code can cimport holdem's kernels from an installed wheel
    (``include_dirs=[holdem.get_include()]``)."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads csrc/ in the source tree (see get_include)
        for header in sorted(Path("csrc").glob("*.h")):
            self.copy_file(str(header), os.path.join(self.build_lib, "holdem", header.name))


class build_ext_parallel(build_ext):
    """Build several extensions at once, one per CPU, unless ``-j``/``--parallel`` says
    otherwise (the compiler runs in threads: the same objects as one at a time). Each
    extension compiles into a temporary directory of its own: several compile the same
    csrc/*.c file, some with other macros, and would otherwise write the same object file."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if not self.parallel:
            self.parallel = os.cpu_count() or 1

    def build_extension(self, ext: Extension) -> None:
        own = copy.copy(self)  # per thread: build_extension sets attributes as it goes
        own.build_temp = os.path.join(self.build_temp, ext.name)
        build_ext.build_extension(own, ext)


setup(
    cmdclass={"build_py": build_py_with_headers, "build_ext": build_ext_parallel},
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
            "embedsignature.format": "clinic",  # inspect.signature() reads the signatures
        },
    ) + cythonize(python_extensions, language_level=3,
                  annotate=os.environ.get("HOLDEM_ANNOTATE") == "1"),
)
