"""Which encoding a model uses: `encoding_name_for_model`, `encoding_for_model`.

For OpenAI's models, the same answers as tiktoken 0.14 gives, for the same names: exact model
names first, then name prefixes (so dated releases such as ``gpt-4o-2024-05-13`` need no update).
Two answers name encodings with no offline data here (p50k_base, p50k_edit): `encoding_for_model`
then fails in `get_encoding`, with a ValueError that says so.

Beyond tiktoken, the open models whose tokenizers are bundled: Llama 3.x and Qwen 2.5 / 3, also
under their Hugging Face names (``meta-llama/Llama-3.1-8B-Instruct``, ``Qwen/Qwen3-8B``): case
and the organisation before ``/`` do not matter for them.

>>> encoding_name_for_model("gpt-4o-2024-05-13"), encoding_name_for_model("gpt-3.5-turbo")
('o200k_base', 'cl100k_base')
>>> encoding_name_for_model("meta-llama/Llama-3.1-8B-Instruct"), encoding_name_for_model("qwen3")
('llama3', 'qwen3')
"""

from tokenizer.encoding import Encoding
from tokenizer.loaders import get_encoding


def _names(encoding: str, models: str) -> dict[str, str]:
    """``{model: encoding}`` for each space-separated model name."""
    return dict.fromkeys(models.split(), encoding)


MODEL_TO_ENCODING: dict[str, str] = {
    **_names("o200k_base", "o1 o3 o4-mini gpt-5 gpt-4.1 gpt-4o gpt-4.5"),
    **_names("o200k_harmony", "gpt-oss-20b gpt-oss-120b"),
    **_names(
        "cl100k_base",
        "gpt-4 gpt-3.5-turbo gpt-3.5 gpt-35-turbo davinci-002 babbage-002 "
        "text-embedding-ada-002 text-embedding-3-small text-embedding-3-large",
    ),
    **_names(
        "p50k_base",
        "text-davinci-003 text-davinci-002 code-davinci-002 code-davinci-001 code-cushman-002 "
        "code-cushman-001 davinci-codex cushman-codex",
    ),
    **_names("p50k_edit", "text-davinci-edit-001 code-davinci-edit-001"),
    **_names(
        "r50k_base",
        "text-davinci-001 text-curie-001 text-babbage-001 text-ada-001 davinci curie babbage ada "
        "text-similarity-davinci-001 text-similarity-curie-001 text-similarity-babbage-001 "
        "text-similarity-ada-001 text-search-davinci-doc-001 text-search-curie-doc-001 "
        "text-search-babbage-doc-001 text-search-ada-doc-001 code-search-babbage-code-001 "
        "code-search-ada-code-001",
    ),
    **_names("gpt2", "gpt2 gpt-2"),
}
"""Exact model names."""

MODEL_PREFIX_TO_ENCODING: dict[str, str] = {
    **_names("o200k_base", "o1- o3- o4-mini- gpt-5 gpt-4.5- gpt-4.1- chatgpt-4o- gpt-4o-"),
    **_names("cl100k_base", "gpt-4- gpt-3.5-turbo- gpt-35-turbo-"),
    **_names("o200k_harmony", "gpt-oss-"),
    **_names("o200k_base", "ft:gpt-4o"),
    **_names("cl100k_base", "ft:gpt-4 ft:gpt-3.5-turbo ft:davinci-002 ft:babbage-002"),
}
"""Prefixes of model names, tried in this order (``ft:gpt-4o`` before ``ft:gpt-4``)."""

OPEN_MODEL_PREFIXES: dict[str, str] = {
    **_names("llama3", "llama-3 llama3 meta-llama-3"),
    **_names("qwen3", "qwen2.5 qwen3"),
}
"""Prefixes of open models' names, matched in lower case without an organisation."""


def encoding_name_for_model(model_name: str) -> str:
    """The name of the encoding `model_name` uses; a KeyError for a model we cannot place."""
    if model_name in MODEL_TO_ENCODING:
        return MODEL_TO_ENCODING[model_name]
    for prefix, encoding_name in MODEL_PREFIX_TO_ENCODING.items():
        if model_name.startswith(prefix):
            return encoding_name
    plain = model_name.rsplit("/", 1)[-1].lower()
    for prefix, encoding_name in OPEN_MODEL_PREFIXES.items():
        if plain.startswith(prefix):
            return encoding_name
    raise KeyError(
        f"no known encoding for the model {model_name!r}; "
        "name the encoding you expect with get_encoding instead"
    )


def encoding_for_model(model_name: str) -> Encoding:
    """The encoding `model_name` uses (see `encoding_name_for_model`).

    >>> encoding_for_model("gpt-4").name
    'cl100k_base'
    """
    return get_encoding(encoding_name_for_model(model_name))
