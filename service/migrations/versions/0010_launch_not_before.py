"""a launch waits for the start its plan was approved with: a request that says when the job may start ("once the code
freeze is over on Dec 10") is queued at approval and claimed only from then

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('launch_task', schema=None) as batch_op:
        batch_op.add_column(sa.Column('not_before', sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('launch_task', schema=None) as batch_op:
        batch_op.drop_column('not_before')
