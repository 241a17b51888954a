"""Alembic's migrations of the server's database (``bones.server.migrate`` applies them)."""
