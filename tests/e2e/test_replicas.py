"""docs/deploy/nginx.conf, as a school would run it: two replicas behind nginx, sessions pinned.

The test runs the documented file itself, changing only the ports (free ones) and the paths nginx
writes to, so the README's snippet is the tested one.
"""

import re
import urllib.request
from collections.abc import Iterator
from urllib.parse import quote_plus, urlencode

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.harness import behind_nginx, find_nginx, goto, new_page
from tests.prerequisites import missing
from ui.common.limits import MAX_URL_VALUE_BYTES
from ui.common.state import fits_in_link

REPLICAS = 2

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def nginx_url() -> Iterator[str]:
    """nginx on a free port in front of two app replicas, all stopped at the end."""
    binary = find_nginx()
    if binary is None:
        missing("nginx not found (apt-get install nginx)")
    with behind_nginx(binary, REPLICAS) as (url, _):
        yield url


def replica_of(url: str, route: str | None) -> tuple[str, str]:
    """(the replica that answered, the route cookie nginx set) for one request with `route`."""
    request = urllib.request.Request(url + "/_stcore/health")
    if route is not None:
        request.add_header("Cookie", f"bpe_lens_route={route}")
    with urllib.request.urlopen(request, timeout=10) as response:
        cookies = " ".join(response.headers.get_all("Set-Cookie") or [])  # Streamlit sets its own
        found = re.search(r"bpe_lens_route=([^;]+)", cookies)
        return response.headers["X-Upstream"], found.group(1) if found else ""


def test_every_browser_gets_a_route_and_keeps_its_replica(nginx_url: str) -> None:
    routes = [replica_of(nginx_url, None)[1] for _ in range(20)]
    assert all(routes) and len(set(routes)) == len(routes)  # a new random route per browser
    replicas = {route: replica_of(nginx_url, route)[0] for route in routes}
    for route, replica in replicas.items():  # the same route always reaches the same replica
        assert {replica_of(nginx_url, route)[0] for _ in range(5)} == {replica}
    assert len(set(replicas.values())) == REPLICAS  # and the class is spread over all of them


def test_the_longest_link_the_app_writes_gets_through(nginx_url: str) -> None:
    """A text at the link's limit, plus 2 KB of other parameters (many `vocabs=` ids)."""
    text = "日" * (MAX_URL_VALUE_BYTES // len(quote_plus("日")))
    assert fits_in_link(text) and not fits_in_link(text + "日")
    others = urlencode({"enc": "cl100k_base", "vocabs": ",".join(["vocab-0123456789abcdef"] * 90)})
    link = f"{nginx_url}/?text={quote_plus(text)}&{others}"
    assert len(link) > 8_000  # more than nginx's default request line buffer (8 KB) takes
    with urllib.request.urlopen(link, timeout=10) as response:
        assert response.status == 200


def test_a_session_through_the_proxy_types_and_sees_tokens(
    nginx_url: str, browser: Browser
) -> None:
    with new_page(browser, width=1280, height=720, color_scheme="light") as page:
        goto(page, nginx_url + "/?text=hello%20world")  # the websocket goes through nginx
        expect(page.locator(".tok[data-token-id='31373']").first).to_be_visible()
        cookies = {c["name"]: c["value"] for c in page.context.cookies()}
        assert cookies.get("bpe_lens_route")
