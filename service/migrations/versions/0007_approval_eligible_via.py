"""approvals record the Slack user group or e-mail entry that admitted the approver

Revision ID: 0007
Revises: 0003
Create Date: 2026-12-01

Rows written before it were admitted by their approver's own actor id and read as such.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0007'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('approval', schema=None) as batch_op:
        batch_op.add_column(sa.Column('eligible_via', sa.String(length=320), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('approval', schema=None) as batch_op:
        batch_op.drop_column('eligible_via')
