"""requests can wait for answers: the questions a request in needs_input asks and what it was given so far

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('request_question',
    sa.Column('request_id', sa.String(length=40), nullable=False),
    sa.Column('inputs', sa.JSON(), nullable=False),
    sa.Column('questions', sa.JSON(), nullable=False),
    sa.Column('training_request', sa.JSON(), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['request_id'], ['training_request.id'], ),
    sa.PrimaryKeyConstraint('request_id')
    )


def downgrade() -> None:
    op.drop_table('request_question')
