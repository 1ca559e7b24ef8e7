"""jobs carry their live cost; alert levels already reported are kept so that each is said once

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('job', schema=None) as batch_op:
        batch_op.add_column(sa.Column('cost_so_far_usd', sa.Float(), nullable=True))
        batch_op.add_column(sa.Column('projected_cost_usd', sa.Float(), nullable=True))
        batch_op.add_column(sa.Column('cost_as_of', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('started_at', sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        'alert_mark',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('kind', sa.String(length=32), nullable=False),
        sa.Column('subject', sa.String(length=256), nullable=False),
        sa.Column('period', sa.String(length=16), nullable=False),
        sa.Column('level', sa.String(length=256), nullable=False),
        sa.Column('detail', sa.JSON(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('kind', 'subject', 'period', 'level', name='uq_alert_mark'),
    )


def downgrade() -> None:
    op.drop_table('alert_mark')
    with op.batch_alter_table('job', schema=None) as batch_op:
        batch_op.drop_column('started_at')
        batch_op.drop_column('cost_as_of')
        batch_op.drop_column('projected_cost_usd')
        batch_op.drop_column('cost_so_far_usd')
