"""A small HTML reader for tests: what tags, attributes and token texts a view really contains."""

from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = frozenset({"br", "wbr", "img", "hr", "input"})  # elements with no end tag, nothing inside


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    text: str = ""  # text directly or indirectly inside, style/script bodies excluded


@dataclass
class Probe(HTMLParser):
    """Parse with `probe(html)`; `elements` lists every element in document order."""

    elements: list[Element] = field(default_factory=list)
    _open: list[Element] = field(default_factory=list)
    _raw: str | None = None  # inside <style> or <script>

    def __post_init__(self) -> None:
        HTMLParser.__init__(self, convert_charrefs=True)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, {k: v or "" for k, v in attrs})
        self.elements.append(element)
        if tag in ("style", "script"):
            self._raw = tag
        if tag not in VOID:
            self._open.append(element)

    def handle_endtag(self, tag: str) -> None:
        assert self._open, f"</{tag}> closes nothing"
        assert self._open[-1].tag == tag, f"</{tag}> closes <{self._open[-1].tag}>"
        self._open.pop()
        self._raw = None

    def handle_data(self, data: str) -> None:
        if self._raw is None:
            for element in self._open:
                element.text += data

    def with_class(self, name: str) -> list[Element]:
        return [e for e in self.elements if name in e.attrs.get("class", "").split()]

    def shown_text(self) -> str:
        """The text as the view shows it: token texts, and the characters above split bytes."""
        return "".join(
            e.text
            for e in self.elements
            if {"tok", "grp-chars"} & set(e.attrs.get("class", "").split())
            and "bytes" not in e.attrs["class"]
        )


def probe(html: str) -> Probe:
    parsed = Probe()
    parsed.feed(html)
    parsed.close()
    assert not parsed._open, f"unclosed: {[e.tag for e in parsed._open]}"
    return parsed
