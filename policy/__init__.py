"""The gpuops domain: requests, the price catalog, the cost model and the decision tree.

Pure: no network, no database, no clock reads. Callers pass ``now``.

Importing the package loads nothing: each caller imports the module it uses (``policy.tree.decide``,
``policy.errors``, ...), so reading the error classes or a request model does not build the whole engine.
"""

__all__: list[str] = []
