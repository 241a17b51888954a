"""Declares the optional C extensions; everything else about the package is in pyproject.toml.

``optional=True``: where no C compiler works, the build warns, skips the extensions and the
install still succeeds: ``bones.fast`` plays on its pure-Python path, and the expert searches
with its Python judge (``bones.fast.search.available()`` is false).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("bones.fast._playout", ["src/bones/fast/_playout.c"], optional=True),
        Extension("bones.fast._search", ["src/bones/fast/_search.c"], optional=True),
    ],
)
