"""The first schema: tables, seats, games and the log.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("created", sa.String(32), nullable=False),
        sa.Column("invite_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("watch_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("spec", sa.Text, nullable=False),
    )
    op.create_table(
        "seats",
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("name", sa.Text),
        sa.Column("token_hash", sa.String(64), unique=True),
        sa.Column("joined", sa.String(32)),
    )
    op.create_table(
        "games",
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("started", sa.String(32), nullable=False),
        sa.Column("ended", sa.String(32)),
        sa.Column("result", sa.Text),
        sa.Column("record", sa.Text),
    )
    op.create_table(
        "log",
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("game", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("at", sa.String(32), nullable=False),
    )


def downgrade() -> None:
    for name in ("log", "games", "seats", "tables"):
        op.drop_table(name)
