"""The HTTP API between bot and service (docs/api.md), defined once: both sides import these models.

The service emits them and validates what it is sent with them; the bot sends and parses them. Nothing here does
I/O or imports a server or Slack library: only the stdlib, pydantic and policy's pure value types.
"""
