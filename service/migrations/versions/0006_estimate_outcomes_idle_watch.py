"""finished jobs' actual hours against their estimates, the correction a plan carried, and idle-GPU watch state

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01

``estimate_outcome`` feeds the calibration of estimated hours; ``idle_watch`` keeps each live job's idle episode
and its silencing across restarts; ``plan_revision.calibration_factor`` records the correction a plan's hours carry.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('plan_revision', schema=None) as batch_op:
        batch_op.add_column(sa.Column('calibration_factor', sa.Float(), nullable=True))
    op.create_table(
        'estimate_outcome',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('request_id', sa.String(length=40), nullable=False),
        sa.Column('job_name', sa.String(length=63), nullable=False),
        sa.Column('status', sa.String(length=32), nullable=False),
        sa.Column('team', sa.String(length=128), nullable=False),
        sa.Column('platform', sa.String(length=32), nullable=False),
        sa.Column('instance_type', sa.String(length=64), nullable=False),
        sa.Column('family', sa.String(length=32), nullable=False),
        sa.Column('accelerator', sa.String(length=64), nullable=False),
        sa.Column('accelerators', sa.Integer(), nullable=False),
        sa.Column('instance_count', sa.Integer(), nullable=False),
        sa.Column('task', sa.String(length=32), nullable=False),
        sa.Column('params', sa.Float(), nullable=False),
        sa.Column('size_band', sa.String(length=16), nullable=False),
        sa.Column('tokens', sa.Float(), nullable=False),
        sa.Column('seq_len', sa.Integer(), nullable=False),
        sa.Column('recipe', sa.String(length=256), nullable=True),
        sa.Column('estimated_hours', sa.Float(), nullable=False),
        sa.Column('calibration_factor', sa.Float(), nullable=False),
        sa.Column('actual_hours', sa.Float(), nullable=False),
        sa.Column('hours_basis', sa.String(length=32), nullable=False),
        sa.Column('estimated_cost_usd', sa.Float(), nullable=False),
        sa.Column('actual_cost_usd', sa.Float(), nullable=True),
        sa.Column('finished_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['request_id'], ['training_request.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('request_id'),
    )
    op.create_index('ix_estimate_outcome_team', 'estimate_outcome', ['team'])
    op.create_index('ix_estimate_outcome_finished_at', 'estimate_outcome', ['finished_at'])
    op.create_table(
        'idle_watch',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('request_id', sa.String(length=40), nullable=False),
        sa.Column('job_name', sa.String(length=63), nullable=False),
        sa.Column('idle', sa.Boolean(), nullable=False),
        sa.Column('idle_since', sa.DateTime(timezone=True), nullable=True),
        sa.Column('alerted_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('episodes', sa.Integer(), nullable=False),
        sa.Column('last_utilisation', sa.Float(), nullable=True),
        sa.Column('silenced_by', sa.String(length=256), nullable=True),
        sa.Column('silenced_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['request_id'], ['training_request.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('request_id'),
    )


def downgrade() -> None:
    op.drop_table('idle_watch')
    op.drop_index('ix_estimate_outcome_finished_at', table_name='estimate_outcome')
    op.drop_index('ix_estimate_outcome_team', table_name='estimate_outcome')
    op.drop_table('estimate_outcome')
    with op.batch_alter_table('plan_revision', schema=None) as batch_op:
        batch_op.drop_column('calibration_factor')
