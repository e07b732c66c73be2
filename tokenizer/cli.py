"""`python -m tokenizer encode|decode|trace`: the core from a terminal, handy in class.

python -m tokenizer encode "hello world"              -> 31373 995
python -m tokenizer -e cl100k_base decode 15339 1917   -> hello world
python -m tokenizer decode -e cl100k_base 15339 1917   -> the same: options go either side
python -m tokenizer trace "GPT2 was created by OpenAI" -> one line per merge step, with ranks
"""

import argparse
import json
import os
import sys
from collections.abc import Sequence

from tokenizer.bpe import ChunkTrace
from tokenizer.encoding import Encoding
from tokenizer.loaders import get_encoding, list_encoding_names

_COLOURS = ["\x1b[30;46m", "\x1b[30;43m", "\x1b[30;42m", "\x1b[30;45m", "\x1b[30;44m"]
_BEST = "\x1b[1;31m"
_RESET = "\x1b[0m"


def show_piece(piece: bytes) -> str:
    """A piece as readable text: spaces as `·`, other control bytes and broken UTF-8 as escapes."""
    text = piece.decode("utf-8", errors="backslashreplace")
    visible = text.replace(" ", "·").replace("\n", "↵").replace("\t", "→")
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in visible)


def format_trace(chunk: ChunkTrace, colour: bool) -> list[str]:
    """One line per merge step: the pieces, each pair's rank, and the pair that merges."""
    lines = [f"chunk {chunk.text!r} -> ids {list(chunk.ids)}"]
    for number, step in enumerate(chunk.steps):
        cells = []
        for i, piece in enumerate(step.parts):
            shown = show_piece(piece)
            cells.append(
                f"{_COLOURS[i % len(_COLOURS)]}{shown}{_RESET}" if colour else f"[{shown}]"
            )
            if i < len(step.ranks):
                rank = step.ranks[i]
                label = "—" if rank is None else str(rank)
                best = rank is not None and rank == step.best
                cells.append(f"{_BEST}<{label}>{_RESET}" if best and colour else f"<{label}>")
        if step.best is None:
            outcome = "no more merges"
        else:
            outcome = f"merge rank {step.best} -> id {step.merged} at {list(step.positions)}"
        lines.append(f"  step {number}: {' '.join(cells)}   {outcome}")
    return lines


def _options(parser: argparse.ArgumentParser, defaults: bool) -> None:
    """The options every command takes, before or after its name.

    The copies after a command's name default to "not given", so they never undo a value given
    before it.
    """

    def default(value: object) -> object:
        return value if defaults else argparse.SUPPRESS

    parser.add_argument("-e", "--encoding", default=default("gpt2"), choices=list_encoding_names())
    parser.add_argument(
        "--special",
        action="store_true",
        default=default(False),
        help="read special-token text (<|endoftext|>, <|eot_id|> ...) as one id each",
    )
    parser.add_argument("--color", choices=["auto", "always", "never"], default=default("auto"))


def _parse_ids(values: Sequence[str]) -> list[int]:
    """Ids given as separate arguments, commas, or one JSON list of integers.

    >>> _parse_ids(["[1, 2]"]), _parse_ids(["1,2", "3"])
    ([1, 2], [1, 2, 3])
    """
    joined = " ".join(values).strip()
    if not joined.startswith("["):
        return [int(x) for x in joined.replace(",", " ").split()]
    try:
        ids: list[int] = json.loads(joined)  # a list: JSON that starts with "[" is one
    except (ValueError, RecursionError):
        raise ValueError(f"not a JSON list of ids: {joined[:40]}") from None
    for item in ids:
        if type(item) is not int:  # 2.5 or true are no ids, though int() would take them
            raise ValueError(f"not an id: {json.dumps(item)[:40]}")
    return ids


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; what goes wrong is one line on standard error, never a traceback."""
    args = _parser().parse_args(argv)
    try:
        return _run(args)
    except BrokenPipeError:
        # The reader stopped early (`| head -1`): send the rest nowhere, so that Python's own
        # flush at exit does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except UnicodeEncodeError as exc:  # a kind of ValueError: before it
        print(
            f"error: the terminal's encoding ({exc.encoding}) cannot show this output; "
            "set PYTHONIOENCODING=utf-8",
            file=sys.stderr,
        )
        return 2
    except (ValueError, KeyError, OverflowError) as exc:  # a bad id, text that is not UTF-8
        print(f"error: {exc}", file=sys.stderr)
        return 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m tokenizer", description=__doc__.split("\n")[0])
    _options(parser, defaults=True)
    sub = parser.add_subparsers(dest="command", required=True)
    for name, text_help in [("encode", "text to encode"), ("trace", "text to trace")]:
        command = sub.add_parser(name)
        _options(command, defaults=False)
        command.add_argument("text", nargs="?", help=f"{text_help} (default: standard input)")
    decode = sub.add_parser("decode")
    _options(decode, defaults=False)
    decode.add_argument("ids", nargs="+", help="ids: 1 2 3, 1,2,3 or [1,2,3]")
    return parser


def _run(args: argparse.Namespace) -> int:
    enc: Encoding = get_encoding(args.encoding)
    allowed = "all" if args.special else set()
    if args.command == "decode":
        print(enc.decode(_parse_ids(args.ids)))
        return 0
    text = _text(args.text)
    if args.command == "encode":
        ids = enc.encode(text, allowed_special=allowed, disallowed_special=())
        print(" ".join(map(str, ids)))
        return 0
    colour = args.color == "always" or (
        args.color == "auto" and sys.stdout.isatty() and "NO_COLOR" not in os.environ
    )
    for chunk in enc.trace(text, allowed_special=allowed):
        print("\n".join(format_trace(chunk, colour)))
    return 0


def _text(argument: str | None) -> str:
    """The text to work on, from the argument or standard input, refused unless it is UTF-8.

    Python reads bytes that are not UTF-8 as stand-ins (surrogate escapes; on standard input
    under some locales too), which encoding would then read as U+FFFD: a silently other text.
    """
    if argument is None:
        raw = sys.stdin.buffer.read()
    else:
        try:
            raw = argument.encode("utf-8", errors="surrogateescape")
        except UnicodeEncodeError:  # a lone surrogate from a Python caller: encode repairs it
            return argument
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        where = "standard input" if argument is None else "the text"
        raise ValueError(
            f"{where} is not UTF-8 (byte 0x{raw[exc.start]:02X} at offset {exc.start})"
        ) from None
