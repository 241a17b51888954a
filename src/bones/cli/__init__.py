"""The ``bones`` command line: argument parsing and output only; the work is elsewhere."""
