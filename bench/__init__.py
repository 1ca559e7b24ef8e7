"""Benchmarks: ``python -m bench`` runs them all, ``python -m bench NAME`` one. They print figures, never fail."""
