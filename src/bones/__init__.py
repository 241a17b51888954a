"""bones: dominoes (Draw, Block, Domino Pool) as one rules engine with records, bots and a table.

The pure engine lives in :mod:`bones.engine`; records, bots, simulation and the terminal
front end are sibling packages that depend on it and never the other way round.
"""

__version__ = "0.1.0"
