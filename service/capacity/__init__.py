"""Capacity: what the account can start (quotas, spot placement scores, offerings) gathered for a plan, and the
approved actions that add capacity (quota increase, capacity block, SageMaker training plan), each done once."""
