"""The HTTP API (docs/api.md): ``create_app`` builds it; routers are grouped by resource."""
