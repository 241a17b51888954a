"""Bring a database up to the schema this server writes: Alembic's migrations, shipped in
the package (``migrations/``) and applied at start, before any request is served. A new
database gets every migration; one made by an older server gets those it lacks."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Engine

MIGRATIONS = Path(__file__).resolve().with_name("migrations")


def config() -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


def upgrade(engine: Engine) -> None:
    """Apply every migration the database lacks, in one transaction where it allows."""
    cfg = config()
    with engine.begin() as connection:
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, "head")


def current(engine: Engine) -> str | None:
    """The revision the database is at (``None``: none applied)."""
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def head() -> str | None:
    """The newest revision shipped."""
    return ScriptDirectory.from_config(config()).get_current_head()
