"""SQLite workspace store: connection, migrations and repositories."""
