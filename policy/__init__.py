"""The gpuops domain: requests, the price catalog, the cost model and the decision tree.

Pure: no network, no database, no clock reads. Callers pass ``now``.
"""

from policy.tree import decide

__all__ = ["decide"]
