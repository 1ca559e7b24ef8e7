"""The gpuops domain: requests, the price catalog, the cost model and the decision tree.

Pure: no network, no database, no clock reads. Callers pass ``now``.

Importing the package loads nothing: each caller imports the module it uses (``policy.tree.decide``,
``policy.errors``, ...), so reading the error classes or a request model does not build the whole engine.

A model field that starts as an empty list says ``Field(default_factory=list[str])``, not ``default_factory=list``:
pydantic reads a default factory's signature as it builds the model, and the builtin ``list`` has its signature
only as text, parsed anew for every field (~0.15 ms each, at every start); ``list[str]()`` is the same new list.
"""

__all__: list[str] = []
