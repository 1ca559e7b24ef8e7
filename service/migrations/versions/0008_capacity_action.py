"""capacity actions: quota increases, capacity blocks and training plans, approved and done exactly once

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('capacity_action',
    sa.Column('id', sa.String(length=40), nullable=False),
    sa.Column('request_id', sa.String(length=40), nullable=False),
    sa.Column('revision', sa.Integer(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=32), nullable=False),
    sa.Column('action', sa.JSON(), nullable=False),
    sa.Column('status', sa.String(length=20), nullable=False),
    sa.Column('proposed_by', sa.String(length=256), nullable=False),
    sa.Column('approvals_needed', sa.Integer(), nullable=False),
    sa.Column('approvers', sa.JSON(), nullable=False),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('claimed_by', sa.String(length=256), nullable=True),
    sa.Column('claimed_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('result', sa.JSON(), nullable=False),
    sa.Column('last_error', sa.Text(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['request_id'], ['training_request.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('request_id', 'revision', 'position', name='uq_capacity_action_position')
    )
    with op.batch_alter_table('capacity_action', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_capacity_action_request_id'), ['request_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_capacity_action_status'), ['status'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('capacity_action', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_capacity_action_status'))
        batch_op.drop_index(batch_op.f('ix_capacity_action_request_id'))
    op.drop_table('capacity_action')
