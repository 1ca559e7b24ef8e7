"""``gpuops doctor``'s service-side checks: settings and policy, database schema, Redis, and AWS (identity, the IAM
actions gpuops calls, Cost Explorer and the team cost-allocation tags). Each check returns ``CheckResult`` lines and
never raises for what it checks."""
