"""Links into the Vocabulary page (``/vocab?enc=…&id=…``) from anywhere in the app.

`vocab_url` is the permalink, for HTML views: a relative URL, so it also works when the app is
served under a path prefix. Following it starts a new session, which is fine for the bundled
vocabularies named in it; a session's trained vocabulary is not there any more, so a live view
(the Playground's pinned token) catches the click and switches page to `VOCAB_PAGE` in the session.
"""

from urllib.parse import urlencode

VOCAB_PAGE = "pages/vocab.py"
VOCAB_URL_PATH = "vocab"


def vocab_params(enc_name: str, token_id: int) -> dict[str, str]:
    """The query parameters that open a token on the Vocabulary page."""
    return {"enc": enc_name, "id": str(token_id)}


def vocab_url(enc_name: str, token_id: int) -> str:
    """The permalink of a token: ``vocab_url("gpt2", 43453) == "vocab?enc=gpt2&id=43453"``."""
    return f"{VOCAB_URL_PATH}?{urlencode(vocab_params(enc_name, token_id))}"
