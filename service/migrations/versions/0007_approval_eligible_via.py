"""approvals record the Slack user group or e-mail entry that admitted the approver; requests record the approval
reminders and the escalation already sent

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01

Rows written before it were admitted by their approver's own actor id and read as such.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('approval', schema=None) as batch_op:
        batch_op.add_column(sa.Column('eligible_via', sa.String(length=320), nullable=True))
    with op.batch_alter_table('training_request', schema=None) as batch_op:
        batch_op.add_column(sa.Column('reminders_sent', sa.Integer(), nullable=False, server_default='0'))
        batch_op.add_column(sa.Column('reminded_for', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('escalated_for', sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('training_request', schema=None) as batch_op:
        batch_op.drop_column('escalated_for')
        batch_op.drop_column('reminded_for')
        batch_op.drop_column('reminders_sent')
    with op.batch_alter_table('approval', schema=None) as batch_op:
        batch_op.drop_column('eligible_via')
