"""plan revisions record the amount an approval lets loose, for the budget ledger

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30

``judged_usd`` is the larger of the estimate and the exposure; rows written before it read as their estimate.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('plan_revision', schema=None) as batch_op:
        batch_op.add_column(sa.Column('judged_usd', sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('plan_revision', schema=None) as batch_op:
        batch_op.drop_column('judged_usd')
