"""The open-weight models' encodings: o200k_harmony (GPT-OSS), llama3 and qwen3.

Each is checked against its own reference (tests/oracles.py): tiktoken's definition of
o200k_harmony, Meta's tokenizer from `llama-models` for llama3, Hugging Face `tokenizers` for qwen3.
quicktok, where the data comes from, is a second reference; where it disagrees with the first, the
tests say which one we follow and why. Corpora, generated text and the code-point walk are shared
with the other encodings (test_exact.py, test_code_points.py); this file holds what is particular
to these three.
"""

import unicodedata

import pytest
from hypothesis import given

import tokenizer as tk
from tests.core.texts import corpus_texts, texts
from tests.oracles import harmony_oracle, meta_llama3, oracle_ids, quicktok_ranks
from tokenizer import loaders
from tokenizer.encoding import repair_surrogates

OPEN_MODELS = ["o200k_harmony", "llama3", "qwen3"]

# Text whose bytes change under NFC (decomposed accents, Hangul jamo, a compatibility character
# NFC keeps) and text in several scripts, with spaces and digits where the patterns differ.
DECOMPOSED = [
    "cafe\u0301 re\u0301sume\u0301 nai\u0308ve A\u030a",
    "\u1112\u1161\u11ab\u1100\u1173\u11af \u1100\u1161\u1102\u1161",  # 한글 가나 as jamo
    "\u0065\u0301\u0323 \u00e9 \u212b \ufb01 x\u0307\u0323",
]
MULTILINGUAL = [
    " розгубитися",
    "Ich habe 1234567 Äpfel gegessen, oder?",
    "日本語のテキストと中文字符，还有한국어。",
    "مرحبا بالعالم 2024",
    "def f(x):\n    return x ** 2  # 🙂👍🏽\n\n\n",
]


@pytest.mark.parametrize(
    ("name", "n_vocab", "specials"),
    [("o200k_harmony", 201_088, 1_091), ("llama3", 128_256, 256), ("qwen3", 151_669, 26)],
)
def test_sizes_and_single_bytes(name: str, n_vocab: int, specials: int) -> None:
    enc = tk.get_encoding(name)
    assert enc.n_vocab == n_vocab
    assert len(enc.special_tokens) == specials
    assert sorted(enc.token_bytes(enc.encode_single_token(bytes([b]))) for b in range(256)) == [
        bytes([b]) for b in range(256)
    ]


def test_harmony_is_o200k_base_with_gpt_oss_specials() -> None:
    harmony, base = tk.get_encoding("o200k_harmony"), tk.get_encoding("o200k_base")
    assert harmony._mergeable_ranks is base._mergeable_ranks  # shared, not loaded twice
    assert harmony.pattern == base.pattern
    assert quicktok_ranks("o200k_harmony") == base._mergeable_ranks
    assert harmony.special_tokens == harmony_oracle()._special_tokens  # type: ignore[attr-defined]


def test_harmony_decodes_its_doubly_named_id_as_tiktoken() -> None:
    """Id 200,018 is both <|endofprompt|> and <|reserved_200018|>; decoding picks tiktoken's."""
    enc, oracle = tk.get_encoding("o200k_harmony"), harmony_oracle()
    both = "<|endofprompt|><|reserved_200018|>"
    assert (
        enc.encode(both, allowed_special="all")
        == [200018, 200018]
        == oracle_ids("o200k_harmony", both, "all")
    )
    assert enc.decode([200018]) == oracle.decode([200018])  # type: ignore[attr-defined]


def test_llama3_has_metas_special_tokens_and_ranks() -> None:
    enc, meta = tk.get_encoding("llama3"), meta_llama3()
    assert enc.special_tokens == meta.special_tokens  # Llama 3.1+ names: <|eom_id|>, ...
    assert enc._mergeable_ranks == meta.model._mergeable_ranks
    assert enc.pattern == meta.pat_str


def test_qwen3_has_quicktoks_vocabulary() -> None:
    import quicktok

    enc, source = tk.get_encoding("qwen3"), quicktok.get_encoding("qwen3")
    assert enc.special_tokens == {
        s: source.encode_single_token(s) for s in source.special_tokens_set
    }
    assert enc._mergeable_ranks == quicktok_ranks("qwen3")
    assert enc.normalizer == tk.Normalizer(nfc=True)


@pytest.mark.parametrize("text", [*DECOMPOSED, *MULTILINGUAL])
@pytest.mark.parametrize("name", OPEN_MODELS)
def test_decomposed_and_multilingual_text(name: str, text: str) -> None:
    enc = tk.get_encoding(name)
    assert enc.encode_ordinary(text) == oracle_ids(name, text)


@pytest.mark.parametrize("name", OPEN_MODELS)
def test_each_special_token_is_one_id(name: str) -> None:
    enc = tk.get_encoding(name)
    specials = sorted(enc.special_tokens, key=enc.special_tokens.__getitem__)
    text = " x".join(specials[:40] + specials[-5:]) + "<|endoftext|> <|im_start|>user\nhi"
    assert enc.encode(text, allowed_special="all") == oracle_ids(name, text, "all")


def test_qwen3_normalises_to_nfc_llama3_does_not() -> None:
    qwen, llama = tk.get_encoding("qwen3"), tk.get_encoding("llama3")
    assert qwen.encode("cafe\u0301") == qwen.encode("caf\u00e9")
    assert llama.encode("cafe\u0301") != llama.encode("caf\u00e9")


def test_llama3_the_issues_example_is_metas_not_quicktoks() -> None:
    """quicktok's own llama3 encoder merges " розгубитися" into one id; Meta's does not."""
    import quicktok

    ids = tk.get_encoding("llama3").encode(" розгубитися")
    assert ids == meta_llama3().encode(" розгубитися", bos=False, eos=False)
    assert ids[-3:] == [9542, 13810, 4329]
    assert quicktok.get_encoding("llama3").encode_ordinary(" розгубитися") != ids


@pytest.mark.parametrize("file", sorted(corpus_texts()))
def test_llama3_equals_metas_own_encode(file: str) -> None:
    """Meta's `Tokenizer.encode` itself (not only its tiktoken core), on texts below its cuts."""
    text = corpus_texts()[file]
    meta = meta_llama3().encode(text, bos=False, eos=False, allowed_special="all")
    assert tk.get_encoding("llama3").encode(text, allowed_special="all") == meta


@pytest.mark.parametrize("file", sorted(corpus_texts()))
def test_qwen3_equals_quicktok_on_the_corpora(file: str) -> None:
    """The second reference agrees on real text; it differs only on code points whose class
    changed after Unicode 16.0 (quicktok knows a newer Unicode than Hugging Face's engine)."""
    import quicktok

    text = corpus_texts()[file]
    expected = quicktok.get_encoding("qwen3").encode_ordinary(text)
    assert tk.get_encoding("qwen3").encode_ordinary(text) == expected


@pytest.mark.parametrize("name", OPEN_MODELS)
@given(text=texts)
def test_generated_text_round_trips(name: str, text: str) -> None:
    enc = tk.get_encoding(name)
    ids = enc.encode(text, allowed_special="all")
    expected = repair_surrogates(text)
    if name == "qwen3":  # the model reads the text composed
        expected = unicodedata.normalize("NFC", expected)
    assert enc.decode(ids) == expected


def test_a_wrong_package_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = loaders.BUNDLED["llama3"]
    monkeypatch.setitem(
        loaders.BUNDLED, "llama3", loaders.BundledSpec(**{**vars(spec), "n_vocab": 1})
    )
    with pytest.raises(tk.EncodingUnavailableError, match=r"quicktok-v1==0\.4\.0.*128256 ids"):
        loaders._check(loaders._load_quicktok("llama3"), loaders.BUNDLED["llama3"])


@pytest.mark.parametrize(
    ("model", "name"),
    [
        ("gpt-4.5", "o200k_base"),
        ("gpt-oss-20b", "o200k_harmony"),
        ("gpt-oss-120b", "o200k_harmony"),
        ("llama-3.1-8b", "llama3"),
        ("meta-llama/Llama-3.3-70B-Instruct", "llama3"),
        ("Meta-Llama-3-8B", "llama3"),
        ("qwen2.5-7b-instruct", "qwen3"),
        ("Qwen/Qwen3-8B", "qwen3"),
    ],
)
def test_model_names(model: str, name: str) -> None:
    assert tk.encoding_name_for_model(model) == name
    assert tk.encoding_for_model(model).name == name


def test_unknown_open_models_stay_unknown() -> None:
    for model in ["llama-2-7b", "qwen1.5-7b", "mistral-7b"]:
        with pytest.raises(KeyError):
            tk.encoding_name_for_model(model)
