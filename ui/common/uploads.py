"""Files users upload (training corpora, samples, vocabularies): their sizes and their text.

Uploads are untrusted: whatever their bytes, they become text with a sentence saying how they
were read (UTF-8 when valid, else Windows-1252 / Latin-1, counted), never an exception.
"""

import codecs
from dataclasses import dataclass

from ui.common.limits import KB, MB
from ui.common.messages import counted

MIB = 1024 * 1024  # only ui/train/corpora.py's minimum corpus sizes; sizes are named in MB


def size_label(n_bytes: int) -> str:
    """A byte count in the unit a reader expects (decimal units, as Streamlit's uploader names
    its limits; see `ui.common.limits`), with one decimal unless it is 0: a limit reads "10 MB", as
    the uploader's "Limit 10MB per file" does, not "10.0 MB".

    >>> size_label(12), size_label(32_520), size_label(10_000_000), size_label(1_040)
    ('12 bytes', '32.5 KB', '10 MB', '1 KB')
    """
    if n_bytes < KB:
        return counted(n_bytes, "byte")
    value, unit = (n_bytes / KB, "KB") if n_bytes < MB else (n_bytes / MB, "MB")
    return f"{value:.1f}".removesuffix(".0") + f" {unit}"


def upload_mb(limit_bytes: int) -> int:
    """A byte limit as the whole MB an uploader's ``max_upload_size`` takes (rounded up).

    Each uploader passes its own limit, so Streamlit's "Limit … per file" and the page's label
    name the same size, and the browser refuses a bigger file with that size named.

    >>> upload_mb(32 * MB), upload_mb(1)
    (32, 1)
    """
    return -(-limit_bytes // MB)


@dataclass(frozen=True)
class DecodedUpload:
    """An uploaded file's text and what decoding it took, to tell the user honestly."""

    text: str
    encoding: str  # "UTF-8", "UTF-8 with BOM", "UTF-16", "Windows-1252"
    replaced: int  # UTF-8: invalid byte sequences (read as Windows-1252); UTF-16: became U+FFFD
    reread: int = 0  # Windows-1252: bytes above ASCII, read as that code page's characters
    latin1: int = 0  # ...of which the five bytes Windows-1252 leaves undefined, read as Latin-1

    @property
    def notice(self) -> str | None:
        """A sentence for the user when the file was not plain UTF-8, else None."""
        many = "s" if self.replaced != 1 else ""
        if self.encoding == LEGACY:
            undefined = (
                f" ({self.latin1:,} of them, undefined there, as Latin-1 control characters)"
                if self.latin1
                else ""
            )
            return (
                f"This file is not UTF-8: {self.replaced:,} byte sequence{many} could not be "
                f"read as UTF-8. It was read as {LEGACY} (Western European) instead, so its "
                f"{counted(self.reread, 'non-ASCII byte')} became "
                f"characters like é and ü{undefined}. If such characters come out wrong, save "
                "the file as UTF-8 and upload it again."
            )
        if self.replaced:
            return (
                f"This file is not valid {self.encoding}: {self.replaced:,} byte sequence{many} "
                "could not be read and became the replacement character U+FFFD (�). The rest "
                "was read as it is."
            )
        if self.encoding != "UTF-8":
            return f"This file is {self.encoding}; it was converted to UTF-8 text."
        return None


LEGACY = "Windows-1252"
_LATIN1_FALLBACK = "bpe-lens-latin1"
codecs.register_error(
    _LATIN1_FALLBACK,  # the bytes cp1252 leaves undefined (81 8D 8F 90 9D) read as Latin-1
    lambda err: (err.object[err.start : err.end].decode("latin-1"), err.end),  # type: ignore[attr-defined]
)


def decode_upload(data: bytes) -> DecodedUpload:
    """Read a text file's bytes: UTF-8 when it is valid (a BOM is dropped), UTF-16 with its BOM,
    else Windows-1252, with Latin-1 for the five bytes that code page leaves undefined.

    Nothing fails: the result says what was read how, for the user.

    >>> decode_upload(b"caf\\xe9!").text, decode_upload(b"caf\\xe9!").encoding
    ('café!', 'Windows-1252')
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return _utf16(data)
    label = "UTF-8"
    if data.startswith(b"\xef\xbb\xbf"):
        data, label = data[3:], "UTF-8 with BOM"
    try:
        return DecodedUpload(data.decode("utf-8"), label, 0)
    except UnicodeDecodeError:
        pass
    # Each invalid sequence became one U+FFFD; dropping them instead shows how many there are.
    invalid = len(data.decode("utf-8", "replace")) - len(data.decode("utf-8", "ignore"))
    text = data.decode("cp1252", errors=_LATIN1_FALLBACK)
    reread = sum(byte >= 0x80 for byte in data)
    undefined = sum(data.count(bytes([byte])) for byte in (0x81, 0x8D, 0x8F, 0x90, 0x9D))
    return DecodedUpload(text, LEGACY, invalid, reread, undefined)


NOT_TEXT = "is not text (not UTF-8, and it holds NUL bytes, as images and archives do)"
"""What a file `is_binary` finds is, after its name, in the pages' messages."""


def is_binary(data: bytes) -> bool:
    """Whether an upload is a binary file (an image, an archive) rather than text: a NUL byte in
    its first 8,000 bytes, the rule git and most editors use, in bytes that are not UTF-8.

    NULs in valid UTF-8 are text (U+0000, which byte-level BPE learns like any character), and
    so is UTF-16 with its byte-order mark, whose NULs are half of every ASCII character.

    >>> is_binary(b"\\x89PNG\\r\\n\\x1a\\n\\x00\\x00"), is_binary(b"caf\\xe9")
    (True, False)
    >>> is_binary("a".encode("utf-16")), is_binary(b"a\\x00b")
    (False, False)
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" not in data[:8000]:
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


def _utf16(data: bytes) -> DecodedUpload:
    try:
        return DecodedUpload(data.decode("utf-16"), "UTF-16", 0)
    except UnicodeDecodeError:
        text = data.decode("utf-16", errors="replace")
        replaced = len(text) - len(data.decode("utf-16", errors="ignore"))
        return DecodedUpload(text, "UTF-16", replaced)
