"""The keys that sign the audit chain: the current one signs new events, previous ones still verify old events.

Each event records the id of the key that signed it (the first 8 hex digits of the key's sha256), never the key.
A keyring is bound to an engine by whoever builds the engine from settings (the API state, the worker, the
commands); an engine nobody bound signs with the keys of the process's own settings.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping
from dataclasses import dataclass, field
from weakref import WeakKeyDictionary

from sqlalchemy.engine import Engine
from sqlmodel import Session

from service.settings import Settings, get_settings

KEY_ID_CHARS = 8


def key_id(secret: str) -> str:
    """The id an event records for the key that signed it; says nothing useful about the key itself."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()[:KEY_ID_CHARS]


@dataclass(frozen=True)
class AuditKeyring:
    """The current signing key and every key that may have signed an existing event, by key id."""

    current_id: str
    keys: Mapping[str, bytes] = field(repr=False)

    @classmethod
    def from_secrets(cls, current: str, previous: list[str] | None = None) -> AuditKeyring:
        keys = {key_id(secret): secret.encode("utf-8") for secret in [*(previous or []), current]}
        return cls(current_id=key_id(current), keys=keys)

    def sign(self, message: bytes, *, with_key: str | None = None) -> str:
        """HMAC-SHA256 of ``message`` under the key ``with_key`` (the current key by default), as hex."""
        return hmac.new(self.keys[with_key or self.current_id], message, hashlib.sha256).hexdigest()

    def knows(self, kid: str) -> bool:
        return kid in self.keys


_BOUND: WeakKeyDictionary[Engine, AuditKeyring] = WeakKeyDictionary()


def bind_keyring(engine: Engine, keyring: AuditKeyring) -> Engine:
    """Sign the events written through ``engine`` with ``keyring``; returns the engine."""
    _BOUND[engine] = keyring
    return engine


def keyring_for(session: Session) -> AuditKeyring:
    """The keyring bound to the session's engine, else the one from the process's settings."""
    keyring = _BOUND.get(session.get_bind().engine)
    return keyring if keyring is not None else keyring_from_settings(get_settings())


def keyring_from_settings(settings: Settings) -> AuditKeyring:
    """``GPUOPS_AUDIT_KEY`` signs; ``GPUOPS_AUDIT_PREVIOUS_KEYS`` still verify."""
    return AuditKeyring.from_secrets(settings.audit_signing_key(), settings.previous_audit_keys())
