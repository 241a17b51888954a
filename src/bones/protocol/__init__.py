"""The bot protocol ``bones-bot/1`` (``docs/bot-protocol.md``):
bots as processes that read move requests and write plays, one JSON line each.

``codec`` turns a ``SeatView`` into a move request and a request back into a view, which
``public`` checks by replaying its moves from the seat's side; ``external`` is the referee's
end (an outside bot run as a process, ``cmd:PROGRAM``), ``server`` the bot's end (``bones
bot``: one of bones's own bots as such a process); ``bots`` makes the bot for a seat by
name, either kind. ``quoting`` names the values of a request or a reply in messages, as
JSON and cut; ``strays`` finds and ends every process an outside bot started.

It sits above ``bones.ai`` (whose bots ``server`` serves) and below the tables that seat
bots (``bones.sim``, ``bones.tui``). What it needs from them is handed down, not imported:
a simulation's workers give their outside bots ``bones.sim.parallel.check_cancelled``, so
that a stopped run ends the wait for a reply.
"""
