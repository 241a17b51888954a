"""Declares the optional C extension; everything else about the package is in pyproject.toml.

``optional=True``: where no C compiler works, the build warns, skips the extension and the
install still succeeds, and ``bones.fast`` plays on its pure-Python path.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("bones.fast._playout", ["src/bones/fast/_playout.c"], optional=True),
    ],
)
