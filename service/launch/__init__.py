"""Launching approved plans exactly once: the outbox the worker claims (``outbox``), the check that prices and
spend still hold (``reapproval``), the worker loop (``worker``), and one launcher per platform behind one protocol
(``protocol``, ``registry``, ``on_sagemaker``, ``on_eks``, ``artifacts_only``, ``manifests``)."""
