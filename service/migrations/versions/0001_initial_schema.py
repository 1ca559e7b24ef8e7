"""initial schema

Revision ID: 0001
Revises: (none)
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

# The audit chain starts from this hash; ``service.audit.chain`` uses the same constant.
GENESIS_HASH = "0" * 64

revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('audit_event',
    sa.Column('seq', sa.BigInteger(), autoincrement=False, nullable=False),
    sa.Column('request_id', sa.String(length=40), nullable=True),
    sa.Column('type', sa.String(length=64), nullable=False),
    sa.Column('actor', sa.String(length=256), nullable=False),
    sa.Column('data', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('prev_hash', sa.String(length=64), nullable=False),
    sa.Column('hash', sa.String(length=64), nullable=False),
    sa.PrimaryKeyConstraint('seq'),
    sa.UniqueConstraint('hash')
    )
    with op.batch_alter_table('audit_event', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_audit_event_request_id'), ['request_id'], unique=False)

    op.create_table('audit_head',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('seq', sa.BigInteger(), nullable=False),
    sa.Column('hash', sa.String(length=64), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_table('consumer_cursor',
    sa.Column('consumer', sa.String(length=128), nullable=False),
    sa.Column('cursor', sa.String(length=64), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('consumer')
    )
    op.create_table('digest_run',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('channel', sa.String(length=256), nullable=False),
    sa.Column('date', sa.String(length=10), nullable=False),
    sa.Column('team', sa.String(length=128), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('detail', sa.Text(), nullable=True),
    sa.Column('claimed_by', sa.String(length=256), nullable=False),
    sa.Column('claimed_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('channel', 'date', name='uq_digest_run_channel_date')
    )
    op.create_table('training_request',
    sa.Column('id', sa.String(length=40), nullable=False),
    sa.Column('status', sa.String(length=32), nullable=False),
    sa.Column('team', sa.String(length=128), nullable=False),
    sa.Column('requester', sa.String(length=256), nullable=False),
    sa.Column('channel', sa.String(length=256), nullable=True),
    sa.Column('timezone', sa.String(length=64), nullable=False),
    sa.Column('stage', sa.String(length=32), nullable=False),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('revision', sa.Integer(), nullable=False),
    sa.Column('approvals_needed', sa.Integer(), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('training_request', schema=None) as batch_op:
        batch_op.create_index('ix_training_request_created', ['created_at', 'id'], unique=False)
        batch_op.create_index(batch_op.f('ix_training_request_requester'), ['requester'], unique=False)
        batch_op.create_index(batch_op.f('ix_training_request_status'), ['status'], unique=False)
        batch_op.create_index('ix_training_request_status_expires', ['status', 'expires_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_training_request_team'), ['team'], unique=False)

    op.create_table('approval',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('request_id', sa.String(length=40), nullable=False),
    sa.Column('revision', sa.Integer(), nullable=False),
    sa.Column('approver', sa.String(length=256), nullable=False),
    sa.Column('decision', sa.String(length=16), nullable=False),
    sa.Column('comment', sa.Text(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['request_id'], ['training_request.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('request_id', 'revision', 'approver', name='uq_approval_request_revision_approver')
    )
    with op.batch_alter_table('approval', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_approval_request_id'), ['request_id'], unique=False)

    op.create_table('artifact',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('request_id', sa.String(length=40), nullable=False),
    sa.Column('kind', sa.String(length=64), nullable=False),
    sa.Column('name', sa.String(length=256), nullable=False),
    sa.Column('content_type', sa.String(length=128), nullable=False),
    sa.Column('content', sa.Text(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['request_id'], ['training_request.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('artifact', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_artifact_request_id'), ['request_id'], unique=False)

    op.create_table('idempotency_key',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('scope', sa.String(length=256), nullable=False),
    sa.Column('key', sa.String(length=256), nullable=False),
    sa.Column('body_hash', sa.String(length=64), nullable=False),
    sa.Column('request_id', sa.String(length=40), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['request_id'], ['training_request.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('scope', 'key', name='uq_idempotency_scope_key')
    )
    with op.batch_alter_table('idempotency_key', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_idempotency_key_request_id'), ['request_id'], unique=False)

    op.create_table('job',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('request_id', sa.String(length=40), nullable=False),
    sa.Column('revision', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=63), nullable=False),
    sa.Column('platform', sa.String(length=32), nullable=False),
    sa.Column('status', sa.String(length=32), nullable=False),
    sa.Column('secondary_status', sa.String(length=64), nullable=True),
    sa.Column('external_id', sa.String(length=512), nullable=True),
    sa.Column('dry_run', sa.Boolean(), nullable=False),
    sa.Column('estimated_cost_usd', sa.Float(), nullable=False),
    sa.Column('actual_cost_usd', sa.Float(), nullable=True),
    sa.Column('billable_seconds', sa.Integer(), nullable=True),
    sa.Column('training_seconds', sa.Integer(), nullable=True),
    sa.Column('spot_savings', sa.Float(), nullable=True),
    sa.Column('interruptions', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['request_id'], ['training_request.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('name'),
    sa.UniqueConstraint('request_id')
    )
    with op.batch_alter_table('job', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_job_status'), ['status'], unique=False)

    op.create_table('launch_task',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('request_id', sa.String(length=40), nullable=False),
    sa.Column('revision', sa.Integer(), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('claimed_by', sa.String(length=256), nullable=True),
    sa.Column('claimed_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('last_error', sa.Text(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['request_id'], ['training_request.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('request_id', 'revision', name='uq_launch_task_request_revision')
    )
    with op.batch_alter_table('launch_task', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_launch_task_request_id'), ['request_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_launch_task_status'), ['status'], unique=False)

    op.create_table('plan_revision',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('request_id', sa.String(length=40), nullable=False),
    sa.Column('revision', sa.Integer(), nullable=False),
    sa.Column('inputs', sa.JSON(), nullable=False),
    sa.Column('training_request', sa.JSON(), nullable=False),
    sa.Column('decision', sa.JSON(), nullable=False),
    sa.Column('plan_hash', sa.String(length=64), nullable=False),
    sa.Column('policy_version', sa.String(length=64), nullable=False),
    sa.Column('price_snapshot', sa.String(length=128), nullable=False),
    sa.Column('spend', sa.JSON(), nullable=False),
    sa.Column('estimated_cost_usd', sa.Float(), nullable=False),
    sa.Column('approvals_needed', sa.Integer(), nullable=False),
    sa.Column('denied', sa.Boolean(), nullable=False),
    sa.Column('created_by', sa.String(length=256), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['request_id'], ['training_request.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('request_id', 'revision', name='uq_plan_revision_request_revision')
    )
    with op.batch_alter_table('plan_revision', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_plan_revision_request_id'), ['request_id'], unique=False)

    op.create_table('slack_message',
    sa.Column('request_id', sa.String(length=40), nullable=False),
    sa.Column('channel', sa.String(length=256), nullable=False),
    sa.Column('ts', sa.String(length=64), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['request_id'], ['training_request.id'], ),
    sa.PrimaryKeyConstraint('request_id')
    )
    audit_head = sa.table("audit_head", sa.column("id", sa.Integer()), sa.column("seq", sa.BigInteger()),
                          sa.column("hash", sa.String()))
    op.bulk_insert(audit_head, [{"id": 1, "seq": 0, "hash": GENESIS_HASH}])


def downgrade() -> None:
    op.drop_table('slack_message')
    with op.batch_alter_table('plan_revision', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_plan_revision_request_id'))

    op.drop_table('plan_revision')
    with op.batch_alter_table('launch_task', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_launch_task_status'))
        batch_op.drop_index(batch_op.f('ix_launch_task_request_id'))

    op.drop_table('launch_task')
    with op.batch_alter_table('job', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_job_status'))

    op.drop_table('job')
    with op.batch_alter_table('idempotency_key', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_idempotency_key_request_id'))

    op.drop_table('idempotency_key')
    with op.batch_alter_table('artifact', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_artifact_request_id'))

    op.drop_table('artifact')
    with op.batch_alter_table('approval', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_approval_request_id'))

    op.drop_table('approval')
    with op.batch_alter_table('training_request', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_training_request_team'))
        batch_op.drop_index('ix_training_request_status_expires')
        batch_op.drop_index(batch_op.f('ix_training_request_status'))
        batch_op.drop_index(batch_op.f('ix_training_request_requester'))
        batch_op.drop_index('ix_training_request_created')

    op.drop_table('training_request')
    op.drop_table('digest_run')
    op.drop_table('consumer_cursor')
    op.drop_table('audit_head')
    with op.batch_alter_table('audit_event', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_audit_event_request_id'))

    op.drop_table('audit_event')
