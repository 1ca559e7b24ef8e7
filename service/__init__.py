"""The gpuops policy service: the single owner of state (requests, approvals, audit, launches).

Cut by feature; each package holds one job (docs/design.md §House map):

- ``api/``: the composition root: the HTTP API of docs/api.md (``create_app``), its dependencies (``deps``), and
  the one mapping of the error tree to HTTP (``error_responses``).
- ``requests/``: filing and revising requests (``filing``), approvals, the state machine (``states``), reading them.
- ``audit/``: the keyed hash chain, its checks and anchors, and the events feed read from it.
- ``launch/``: the outbox the worker claims, the pre-launch re-check, the worker, and one launcher per platform
  behind one protocol.
- ``jobs/``: tracking launched jobs to the end and stopping them.
- ``spend/``: where spend comes from; ``planning.py`` turns what a person gave into a decision with it.
- ``aws/``: adapters only (SageMaker, Cost Explorer, pricing); they return the launcher protocol's types and never
  import what drives them.
- ``store/``: tables, engines, migrations. ``settings``, ``cache``, ``clock``, ``logs``, ``metrics``,
  ``digest_claims``: what every feature shares.
"""
