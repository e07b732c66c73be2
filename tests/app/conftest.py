"""AppTest set-up shared by the app tests."""

from collections.abc import Iterator

import pytest
from streamlit.runtime.pages_manager import PagesManager


@pytest.fixture(autouse=True)
def _navigation_not_pages_folder() -> Iterator[None]:
    """Run app.py on every AppTest run, as the server does.

    Streamlit guesses "old-style multipage app" when a `pages/` folder sits next to the main
    script, and then runs a requested page file directly, without app.py. A server guesses once
    and `st.navigation` corrects it on the first run; AppTest guesses again before every run, so
    from the second run on it would skip app.py (and the sidebar). Pin what `st.navigation` sets.
    """
    original = PagesManager.__init__

    def init(self: PagesManager, *args: object, **kwargs: object) -> None:
        original(self, *args, **kwargs)
        PagesManager.uses_pages_directory = False

    PagesManager.__init__ = init  # type: ignore[method-assign]
    yield
    PagesManager.__init__ = original  # type: ignore[method-assign]
