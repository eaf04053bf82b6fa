"""The optional compiled core of the engine (issue 30): built where a C compiler is present; without one pip still
installs mjtable, which then runs its pure-Python path (``engine/native.py``). Everything else is in pyproject.toml.
The core carries the digest of the source it was built from (``engine.native`` compares it), so a checkout whose
source has moved on since its last build runs the pure path instead of a stale core."""

import hashlib
from pathlib import Path

from setuptools import Extension, setup

SOURCE = Path(__file__).resolve().parent / "engine" / "_native.c"

setup(
    ext_modules=[
        Extension(
            "engine._native",
            ["engine/_native.c"],
            define_macros=[("SOURCE_DIGEST", f'"{hashlib.sha256(SOURCE.read_bytes()).hexdigest()}"')],
            extra_compile_args=["-std=c11", "-O2"],
            optional=True,
        )
    ]
)
