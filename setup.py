"""The optional compiled core of the engine (issue 30): built where a C compiler is present; without one pip still
installs mjtable, which then runs its pure-Python path (``engine/native.py``). Everything else is in pyproject.toml."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("engine._native", ["engine/_native.c"], extra_compile_args=["-std=c11", "-O2"], optional=True)
    ]
)
