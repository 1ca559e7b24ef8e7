"""Only a team's members file for it: over real HTTP, on SQLite and Postgres."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from policy.config import PolicyConfig
from tests.service.apiclient import Live
from tests.service.conftest import live_on
from tests.service.factories import LEADS, make_policy

ML_PERSON, NLP_PERSON, OUTSIDER = "slack:T1:U0MLPERSON", "slack:T1:U0NLPPERSON", "slack:T1:U0OUTSIDER"
TEXT = "fine-tune 7B by Friday production"  # production: waits for approval, so it can be edited


def membership_policy() -> PolicyConfig:
    base = make_policy()
    groups = {**base.groups, "nlp-people": [NLP_PERSON]}
    ml = base.teams["team-ml"].model_copy(update={"members": [ML_PERSON], "slack_channels": ["C0ML"]})
    nlp = base.teams["team-nlp"].model_copy(update={
        "members": ["nlp-people", "usergroup:S0NLP", "email:ana@example.com"], "slack_channels": ["C0NLP"]})
    return base.model_copy(update={"groups": groups, "teams": {"team-ml": ml, "team-nlp": nlp}})


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def live(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    yield from live_on(request, tmp_path_factory, membership_policy(), name="membership")


def file(live: Live, actor: str | None, text: str = TEXT, role: str = "bot", **body: Any) -> httpx.Response:
    return live.post("/v1/requests", {"text": text, **body}, role=role, actor=actor)


def teams_of(live: Live, requester: str) -> list[str]:
    with live.engine.connect() as conn:
        rows = conn.execute(sa.text("SELECT team FROM training_request WHERE requester = :r ORDER BY created_at"),
                            {"r": requester})
        return [row[0] for row in rows]


def refused(response: httpx.Response) -> str:
    assert response.status_code == 403, response.text
    error = response.json()["error"]
    assert error["code"] == "not_a_team_member"
    return str(error["message"])


def test_naming_another_team_in_the_text_from_your_own_teams_channel_is_refused(live: Live) -> None:
    assert file(live, ML_PERSON, channel="C0ML").status_code == 201  # their own team, from its channel
    message = refused(file(live, ML_PERSON, f"{TEXT} for team-nlp", channel="C0ML"))
    assert message.startswith("only members of team-nlp may file requests for it")
    assert NLP_PERSON in message and LEADS[0] in message  # whom to ask: named members, then approvers
    assert "ana@example.com" not in message
    assert refused(file(live, ML_PERSON, team="team-nlp")) == message  # the structured field, the same
    # saying another team pays is naming it: the same refusal, nothing charged to it
    assert refused(file(live, ML_PERSON, f"{TEXT}, team nlp pays", channel="C0ML")) == message
    assert teams_of(live, ML_PERSON) == ["team-ml"]


@pytest.mark.parametrize(("name", "actor", "body"), [
    ("by actor id through a policy group", NLP_PERSON, {}),
    ("by Slack user group", OUTSIDER, {"requester_groups": ["S0OTHER", "S0NLP"]}),
    ("by e-mail, in any case", OUTSIDER, {"requester_email": "Ana@Example.COM"}),
    ("as an approver of the team", LEADS[1], {}),
])
def test_a_member_files_for_the_team(live: Live, name: str, actor: str, body: dict[str, Any]) -> None:
    response = file(live, actor, f"{TEXT} for team-nlp", **body)
    assert response.status_code == 201, (name, response.text)
    assert response.json()["team"] == "team-nlp"


def test_filing_from_the_teams_channel_counts_as_membership(live: Live) -> None:
    stranger = "slack:T1:U0CHANNELONLY"
    by_channel = file(live, stranger, channel="C0NLP")  # no team named: the channel's team
    assert (by_channel.status_code, by_channel.json()["team"]) == (201, "team-nlp")
    refused(file(live, stranger, channel="C0ML", team="team-nlp"))
    refused(file(live, stranger))  # no team, no team channel: the default team, which lists members too


def test_the_e_mail_and_groups_count_only_from_the_bot_acting_for_that_person(live: Live) -> None:
    facts = {"requester_email": "ana@example.com", "requester_groups": ["S0NLP"]}
    refused(file(live, None, f"{TEXT} for team-nlp", **facts))  # a bot token acting for nobody
    assert file(live, OUTSIDER, f"{TEXT} for team-nlp", **facts).status_code == 201
    malformed = file(live, OUTSIDER, f"{TEXT} for team-nlp", requester_groups=["nlp"])
    assert malformed.status_code == 422 and "requester_groups" in malformed.text


def test_an_admin_token_files_for_any_team(live: Live) -> None:
    assert file(live, None, f"{TEXT} for team-nlp", role="admin").status_code == 201
    for_someone = file(live, None, f"{TEXT} for team-nlp", role="admin", requester="slack:T1:U0NAMEDBYADMIN")
    assert (for_someone.status_code, for_someone.json()["requester"]) == (201, "slack:T1:U0NAMEDBYADMIN")


def test_an_edit_that_moves_the_request_to_another_team_needs_membership_of_it(live: Live) -> None:
    created = file(live, ML_PERSON, channel="C0ML").json()
    patch = live.client.patch(f"/v1/requests/{created['id']}", json={"team": "team-nlp"},
                              headers={"Authorization": "Bearer bot-token-0123456789", "X-Gpuops-Actor": ML_PERSON})
    refused(patch)
    kept = live.get(f"/v1/requests/{created['id']}").json()
    assert (kept["team"], kept["revision"]) == ("team-ml", 1)
    by_lead = file(live, LEADS[2]).json()  # an approver of both teams may move a request between them
    moved = live.client.patch(f"/v1/requests/{by_lead['id']}", json={"team": "team-nlp"},
                              headers={"Authorization": "Bearer bot-token-0123456789", "X-Gpuops-Actor": LEADS[2]})
    assert (moved.status_code, moved.json()["team"], moved.json()["revision"]) == (200, "team-nlp", 2)


def test_a_replayed_delivery_with_freshly_looked_up_facts_is_the_same_request(live: Live) -> None:
    key = {"Idempotency-Key": "membership-replay"}
    body = {"text": f"{TEXT} for team-nlp", "requester_email": "ana@example.com"}
    first = live.post("/v1/requests", body, role="bot", actor=OUTSIDER, headers=key)
    again = live.post("/v1/requests", {**body, "requester_groups": ["S0NLP"]}, role="bot", actor=OUTSIDER,
                      headers=key)
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json()["id"] == first.json()["id"]
