"""The web table: one process serving pages, static files and WebSockets (``bones serve``).

The server is the only writer. One ``Round`` per table (``round``) applies every move
through ``bones.table.Table``, appends it to the database and commits it before any
client hears of it, then sends each socket its own seat's view (a spectator the public
one), every frame numbered with the table's sequence number. ``store`` holds the schema
and ``migrate`` applies its Alembic migrations at start; ``frames`` reads what a browser
sends and refuses what it must not; ``app`` is the Starlette application
(``bones.server.app.create_app``).
"""
