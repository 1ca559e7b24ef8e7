"""The configuration reference in docs/operations.md is generated from the settings models and stays current."""

from __future__ import annotations

import pathlib
import re

from scripts.gen_config_docs import update

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_configuration_reference_matches_the_settings_models() -> None:
    text = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    assert update(text) == text, "run: .venv/bin/python scripts/gen_config_docs.py --update docs/operations.md"


def test_every_generated_section_is_filled() -> None:
    text = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    assert text.count("<!-- generated: ") == text.count("<!-- end generated -->") == 3


def _anchors(page: pathlib.Path) -> set[str]:
    """GitHub-style anchors of a page's headings."""
    headings = re.findall(r"^#+ (.+)$", page.read_text(encoding="utf-8"), flags=re.MULTILINE)
    return {re.sub(r"[^a-z0-9 _-]", "", h.lower()).strip().replace(" ", "-") for h in headings}


def test_every_relative_link_in_the_docs_reaches_a_page_and_heading() -> None:
    broken = []
    for page in sorted((ROOT / "docs").glob("*.md")):
        for target, anchor in re.findall(r"\]\(([\w./-]*\.md)?(?:#([\w-]+))?\)", page.read_text(encoding="utf-8")):
            linked = page.parent / target if target else page
            if not linked.is_file() or (anchor and anchor not in _anchors(linked)):
                broken.append(f"{page.name}: {target}#{anchor}")
    assert broken == []


def test_every_rule_a_decision_cites_has_its_section_in_the_sources_page() -> None:
    cited = set(re.findall(r"docs/sources\.md#([\w-]+)", (ROOT / "policy" / "rules.py").read_text(encoding="utf-8")))
    for path in [*ROOT.glob("policy/data/*.yaml"), ROOT / "deploy" / "k8s" / "configmap.yaml"]:
        cited |= set(re.findall(r"docs/sources\.md#([\w-]+)", path.read_text(encoding="utf-8")))
    assert cited and cited <= _anchors(ROOT / "docs" / "sources.md")
