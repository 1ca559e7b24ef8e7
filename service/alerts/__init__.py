"""Alerts while the money moves: a running job's cost against its estimate, a team's month against its budget,
Cost Explorer's anomalies, and commitment advice."""
