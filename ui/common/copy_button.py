"""A "Copy link" button: copies the address bar, which pages keep equal to their state."""

from ui.components import component, script

_button = component("copy_link", js=script("clipboard") + script("copy_link"))


def copy_link_button(key: str, label: str = "Copy link") -> None:
    """Draw the button; clicking copies the page's current URL to the clipboard."""
    _button(
        key=key,
        data={
            "label": label,
            "done_label": "Link copied ✓",
            "failed_label": "Copy failed: use the address bar",
        },
        width="content",
    )
