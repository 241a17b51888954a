"""The table every front end drives: the terminal game, simulations, the arena, the bot
server and, next, the web table and research environments.

``Table`` holds the game, the seats and the bots; ``advance``/``submit``/``undo`` move it
on and return ``events``; ``wire`` gives the JSON of views and events; ``seats``, ``seeds``,
``resume`` and ``recorder`` are who sits where, the generators, taking a game up from its
record, and writing it.
"""

from bones.table.events import Event, GameEnded, HandDealt, HandEnded, Moved, Undone
from bones.table.table import Table, TableError

__all__ = ["Event", "GameEnded", "HandDealt", "HandEnded", "Moved", "Table", "TableError",
           "Undone"]
