"""Alembic's environment: run the migrations on the connection ``bones.server.migrate``
hands over (the server applies them itself at start; there is no alembic.ini)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from bones.server.store import metadata


def run() -> None:
    if context.is_offline_mode():
        raise RuntimeError("bones applies its migrations online, at start")
    connection = context.config.attributes.get("connection")
    if connection is None:  # run by hand: ``alembic -x url=sqlite:///bones.db upgrade head``
        url = context.get_x_argument(as_dictionary=True)["url"]
        with create_engine(url).begin() as made:
            context.configure(connection=made, target_metadata=metadata,
                              render_as_batch=True)
            with context.begin_transaction():
                context.run_migrations()
        return
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


# Alembic sets ``context.config`` before it runs this file; an import from anywhere else
# (pytest's doctest collection walks the package) finds none, and does nothing.
if getattr(context, "config", None) is not None:
    run()
