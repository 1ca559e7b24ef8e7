"""the budget ledger reads a team's live and reserved requests and the day's automatic approvals by index, so the
time it holds the write lock no longer grows with the team's history

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-07

The status's own index is replaced by one on (status, team), which serves a look-up by status alone as well.
"""

from __future__ import annotations

from alembic import op

revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('training_request', schema=None) as batch_op:
        batch_op.drop_index('ix_training_request_status')
        batch_op.create_index('ix_training_request_status_team', ['status', 'team'], unique=False)
    with op.batch_alter_table('plan_revision', schema=None) as batch_op:
        batch_op.create_index('ix_plan_revision_automatic', ['approvals_needed', 'created_at'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('plan_revision', schema=None) as batch_op:
        batch_op.drop_index('ix_plan_revision_automatic')
    with op.batch_alter_table('training_request', schema=None) as batch_op:
        batch_op.drop_index('ix_training_request_status_team')
        batch_op.create_index('ix_training_request_status', ['status'], unique=False)
