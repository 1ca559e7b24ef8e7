"""audit events record the key that signed them

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-14

Existing events keep key_id NULL: they were hashed without a key and verify as unkeyed (docs/operations.md,
"The audit log").
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('audit_event', schema=None) as batch_op:
        batch_op.add_column(sa.Column('key_id', sa.String(length=16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('audit_event', schema=None) as batch_op:
        batch_op.drop_column('key_id')
