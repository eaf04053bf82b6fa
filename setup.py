"""The optional compiled cores of the engine (issue 30): built where a C compiler is present; without one pip still
installs mjtable, which then runs its pure-Python path (``engine/native.py``). Everything else is in pyproject.toml.
Each core carries the digest of the source it was built from (``engine.native`` compares it), so a checkout whose
source has moved on since its last build runs the pure path instead of a stale core. ``_native``: parsing, hu
check, waits, shanten; ``_mcr_native``: the MCR fans of a winning hand, every
form; ``_riichi_native``: the value of a winning riichi hand (readings, yaku, fu, han, points) and a whole
settle line of one."""

import hashlib
from pathlib import Path

from setuptools import Extension, setup

ENGINE = Path(__file__).resolve().parent / "engine"


def core(name: str) -> Extension:
    """The optional extension ``engine.<name>`` built from ``engine/<name>.c``, stamped with the digest of that source
    and the header the cores share (``engine/_notation.h``), as ``engine.native.digest`` computes it."""
    digest = hashlib.sha256((ENGINE / f"{name}.c").read_bytes() + (ENGINE / "_notation.h").read_bytes()).hexdigest()
    return Extension(
        f"engine.{name}",
        [f"engine/{name}.c"],
        depends=["engine/_notation.h"],
        define_macros=[("SOURCE_DIGEST", f'"{digest}"')],
        extra_compile_args=["-std=c11", "-O2"],
        optional=True,
    )


setup(ext_modules=[core("_native"), core("_mcr_native"), core("_riichi_native")])
