"""The server's settings in .streamlit/config.toml that guard against Streamlit's own failures."""

import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit import config
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.runtime.forward_msg_cache import populate_hash_if_needed

CONFIG = Path(__file__).resolve().parents[3] / ".streamlit" / "config.toml"
OPTION = "global.minCachedMessageSize"


@pytest.fixture
def restore_option() -> Iterator[None]:
    before = config.get_option(OPTION)
    yield
    config.set_option(OPTION, before)


def _big_element() -> ForwardMsg:
    """A new element of a megabyte (a megabyte's tokens drawn on the Playground are more)."""
    msg = ForwardMsg()
    msg.delta.new_element.markdown.body = "x" * 1_000_000
    return msg


@pytest.mark.usefixtures("restore_option")
def test_no_element_is_sent_as_a_reference_to_a_cached_copy() -> None:
    """A reference the browser cannot resolve ("Cached ForwardMsg MISS") ends its connection
    for good: see the config file. Streamlit's default would make this element cacheable."""
    config.set_option(OPTION, config.get_config_options()[OPTION].default_val)
    default = _big_element()
    populate_hash_if_needed(default)
    assert default.metadata.cacheable

    ours = tomllib.loads(CONFIG.read_text())["global"]["minCachedMessageSize"]
    config.set_option(OPTION, ours)
    msg = _big_element()
    populate_hash_if_needed(msg)
    assert not msg.metadata.cacheable
