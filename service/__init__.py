"""The gpuops policy service: the single owner of state (requests, approvals, audit, launches).

Where things are:

- ``api/``: the HTTP API of docs/api.md (``create_app``; dependencies in ``api/deps.py``).
- ``settings.py``, ``logs.py``, ``errors.py`` (the error hierarchy mapped to HTTP), ``metrics.py``.
- ``store/``: tables, engines, migrations (``gpuops db upgrade``).
- ``states.py``: the request state machine; every transition writes an audit event, and entering ``approved`` or
  ``auto_approved`` queues a ``launch_task`` (the outbox the worker claims) in the same transaction.
- ``audit.py``: the audit log, chained by keyed hashes (``auditkeys.py``), which is also the events feed
  (``feed.py``); ``auditcheck.py`` checks the tables against it and ``anchors.py`` publishes its head to S3.
- ``requests.py``, ``approvals.py``, ``records.py``, ``reapproval.py``, ``digests.py``, ``attachments.py``: the
  service functions, one transaction each.
- ``planning.py`` (text and fields to a ``Decision``), ``spend.py`` (``SpendProvider``), ``cache.py``.
- ``launch.py``, ``tracker.py``, ``worker.py``, ``aws/``: launching and tracking jobs on AWS.
"""
