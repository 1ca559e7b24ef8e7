"""Requests: filing and revising (``filing``), approvals, the state machine (``states``), reading (``records``,
``views``) and what hangs off a request (``attachments``). One transaction per service function."""
