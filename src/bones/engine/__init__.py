"""The rules engine: tiles, rules, layout, hand and game states, scoring and seat views.

Nothing in this package performs I/O or keeps global state; every shuffle takes an injected
``random.Random``. Front ends, records and bots import from here, never the reverse.
"""

from bones.engine.errors import BonesError, DealError, IllegalMove, RulesError
from bones.engine.game import Game, HandResult, new_game
from bones.engine.layout import Layout
from bones.engine.moves import Draw, Move, Pass, Play
from bones.engine.rules import PRESETS, Rules
from bones.engine.state import HandState
from bones.engine.tiles import Tile, parse_tile, parse_tiles
from bones.engine.view import SeatView, observe

__all__ = [
    "PRESETS",
    "BonesError",
    "DealError",
    "Draw",
    "Game",
    "HandResult",
    "HandState",
    "IllegalMove",
    "Layout",
    "Move",
    "Pass",
    "Play",
    "Rules",
    "RulesError",
    "SeatView",
    "Tile",
    "new_game",
    "observe",
    "parse_tile",
    "parse_tiles",
]
