"""Write ``policy/data/default-policy.json``: the data of ``policy/data/default-policy.yaml``, which
``default_policy()`` reads with the standard library's JSON parser instead of importing PyYAML at every start.

    .venv/bin/python scripts/gen_default_policy.py

The YAML, with its comments, stays the file people read, edit and copy; run this after editing it
(tests/policy/test_policy_file.py fails while the two differ).
"""

from __future__ import annotations

import json
from pathlib import Path

import yaml

DATA = Path(__file__).resolve().parent.parent / "policy" / "data"


def rendered(yaml_text: str) -> str:
    """The policy in ``yaml_text`` as JSON, keys in the YAML's order."""
    return json.dumps(yaml.safe_load(yaml_text), indent=2, ensure_ascii=False) + "\n"


def main() -> None:
    target = DATA / "default-policy.json"
    target.write_text(rendered((DATA / "default-policy.yaml").read_text(encoding="utf-8")), encoding="utf-8")
    print(f"wrote {target}")


if __name__ == "__main__":
    main()
