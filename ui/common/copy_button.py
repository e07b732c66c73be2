"""Copy buttons: "Copy link" copies the address bar, which pages keep equal to their state;
`copy_text_button` copies a text the page gives it (the Chat view's rendered conversation)."""

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


def copy_text_button(key: str, text: str, label: str = "Copy text") -> None:
    """Draw the button; clicking copies `text` (nothing goes back to the server)."""
    _button(
        key=key,
        data={
            "label": label,
            "done_label": "Copied ✓",
            "failed_label": "Copy failed: select the text instead",
            "text": text,
        },
        width="content",
    )
