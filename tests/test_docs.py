"""The configuration reference in docs/operations.md is generated from the settings models and stays current."""

from __future__ import annotations

import pathlib

from scripts.gen_config_docs import update

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_configuration_reference_matches_the_settings_models() -> None:
    text = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    assert update(text) == text, "run: .venv/bin/python scripts/gen_config_docs.py --update docs/operations.md"


def test_every_generated_section_is_filled() -> None:
    text = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    assert text.count("<!-- generated: ") == text.count("<!-- end generated -->") == 3
