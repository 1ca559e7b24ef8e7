"""Persistence: SQLModel tables, the engine and Alembic migrations (``service/migrations``)."""
