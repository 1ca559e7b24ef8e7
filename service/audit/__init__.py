"""The audit log: the keyed hash chain (``chain``, ``keys``), checking it against the tables (``check``), publishing
its head outside the database (``anchors``) and reading it as the events feed (``feed``)."""
