"""The gpuops Slack bot: everything Slack, talking to the service over its HTTP API."""
