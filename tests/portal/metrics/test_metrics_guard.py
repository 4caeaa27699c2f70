"""/metrics answers Prometheus only: off without a configured token, 401 without the right
one (whatever the method), then the text format to GET."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from portal.env import env_token
from tests.portal.metrics.scrape import bearer

pytestmark = pytest.mark.django_db

URL = "/metrics"


def test_metrics_are_off_when_no_token_is_configured(client, settings):
    token = settings.JINZI_METRICS_TOKEN
    settings.JINZI_METRICS_TOKEN = ""

    assert client.get(URL, headers=bearer(token)).status_code == 404
    assert client.get(URL, headers=bearer("")).status_code == 404


@pytest.mark.parametrize(
    "authorization",
    [
        None,
        "",
        "Bearer",
        "Bearer wrong-token-of-the-same-kind-mmmmmmmmmmmmmmmmmmmmmm",
        "Basic {token}",
        "Bearer {token}x",
        "Bearer {short}",
    ],
    ids=["none", "empty", "no-token", "wrong", "basic", "longer", "shorter"],
)
def test_a_request_without_the_right_bearer_token_is_refused_with_401(
    client, settings, authorization
):
    token = settings.JINZI_METRICS_TOKEN
    headers = {}
    if authorization is not None:
        headers["Authorization"] = authorization.format(token=token, short=token[:-1])

    answer = client.get(URL, headers=headers)

    assert answer.status_code == 401
    assert answer["WWW-Authenticate"] == 'Bearer realm="metrics"'
    assert b"# TYPE" not in answer.content


def test_the_right_token_reads_the_prometheus_text_format(client):
    answer = client.get(URL, headers=bearer())

    assert answer.status_code == 200
    assert answer["Content-Type"] == "text/plain; version=0.0.4; charset=utf-8"
    assert "no-store" in answer["Cache-Control"]
    assert b"# TYPE jinzi_report_runs gauge" in answer.content


def test_a_post_is_refused_401_without_the_token_and_405_with_it(client):
    assert client.post(URL).status_code == 401

    answer = client.post(URL, headers=bearer())

    assert answer.status_code == 405 and answer["Allow"] == "GET, HEAD"


def test_the_token_setting_is_unset_or_32_ascii_characters_with_no_spaces():
    assert env_token("JINZI_METRICS_TOKEN", env={}) == ""
    assert env_token("JINZI_METRICS_TOKEN", env={"JINZI_METRICS_TOKEN": "t" * 32}) == "t" * 32
    for bad in ("t" * 31, "t" * 20 + " " + "t" * 20, "t" * 20 + "\t" + "t" * 20, "t" * 32 + "é"):
        with pytest.raises(ImproperlyConfigured, match="JINZI_METRICS_TOKEN must be at least 32"):
            env_token("JINZI_METRICS_TOKEN", env={"JINZI_METRICS_TOKEN": bad})
