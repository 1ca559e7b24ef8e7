"""The gpuops policy service: the single owner of state (requests, approvals, audit, launches)."""
