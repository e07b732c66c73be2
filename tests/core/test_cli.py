"""The command line: encode, decode and trace, as a class would use them."""

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import tokenizer as tk
from tokenizer.cli import format_trace, main

ROOT = Path(__file__).resolve().parents[2]


def test_encode(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["encode", "hello world"]) == 0
    assert capsys.readouterr().out.split() == ["31373", "995"]


@pytest.mark.parametrize("ids", [["15339", "1917"], ["15339,1917"], ["[15339, 1917]"]])
def test_decode_forms(ids: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["-e", "cl100k_base", "decode", *ids]) == 0
    assert capsys.readouterr().out == "hello world\n"


def test_decode_unknown_id_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["decode", "99999999"]) == 2
    assert "99999999" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("ids", "named"),
    [("[" * 5_000, "not a JSON list of ids"), ("[1.5]", "not an id: 1.5"), ("[true]", "true")],
)
def test_decode_refuses_json_that_is_no_list_of_ids(
    ids: str, named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """int() would read 1.5 and true as 1; json.loads of deep brackets raises RecursionError."""
    assert main(["decode", ids]) == 2
    assert named in capsys.readouterr().err


def test_trace_shows_ranks(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--color", "never", "trace", " OpenAI"]) == 0
    out = capsys.readouterr().out
    for rank in ["<12>", "<184>", "<3361>", "<4690>", "<19929>"]:  # the walkthrough's ranks
        assert rank in out
    assert "no more merges" in out
    assert "[4946, 20185]" in out


def test_module_runs() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tokenizer", "--special", "encode", "a<|endoftext|>"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0
    assert done.stdout.split() == ["64", "50256"]


def readme_section(title: str) -> str:
    """The text of one `## title` section of the README."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index(f"## {title}\n")
    end = readme.find("\n## ", start + 1)
    return readme[start : end if end != -1 else None]


def readme_commands() -> list[tuple[str, str]]:
    """Each command of the README's terminal section with the comment printed after it."""
    block = readme_section("In a terminal").split("```bash\n", 1)[1].split("```", 1)[0]
    commands = []
    for line in block.splitlines():
        command, _, comment = line.partition(" # ")
        commands.append((command.strip(), comment.strip()))
    return commands


@pytest.mark.parametrize(("command", "comment"), readme_commands())
def test_readme_commands_work_as_printed(
    command: str, comment: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every example of the README's terminal section runs, and prints what its comment says."""
    argv = shlex.split(command)
    assert argv[:3] == ["python", "-m", "tokenizer"]  # `test_module_runs` runs that entry point
    assert main(argv[3:]) == 0
    out = capsys.readouterr().out
    if "line per merge step" in comment:
        assert "merge rank" in out
    else:
        assert out.strip() == comment


def test_options_go_either_side_of_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in [
        ["-e", "cl100k_base", "decode", "15339", "1917"],
        ["decode", "-e", "cl100k_base", "15339", "1917"],
        ["decode", "15339", "1917", "--encoding", "cl100k_base"],
    ]:
        assert main(argv) == 0
        assert capsys.readouterr().out == "hello world\n"
    assert main(["--special", "encode", "-e", "cl100k_base", "a<|endoftext|>"]) == 0
    assert capsys.readouterr().out.split() == ["64", "100257"]
    assert main(["encode", "a<|endoftext|>"]) == 0  # special text is ordinary without --special
    assert "50256" not in capsys.readouterr().out.split()


def test_trace_names_the_merged_id_and_where() -> None:
    lines = format_trace(tk.get_encoding("gpt2").trace(" OpenAI")[0], colour=False)
    assert lines[1].endswith("merge rank 12 -> id 268 at [3]")
    assert lines[-1].endswith("no more merges")


OPEN_MODELS = ["o200k_harmony", "llama3", "qwen3"]
DECOMPOSED = "Un cafe\u0301 cre\u0300me 👋🏽"


@pytest.mark.parametrize("name", OPEN_MODELS)
def test_encode_decode_and_trace_with_the_open_models(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The three commands agree with the core for each new encoding, Qwen's NFC included."""
    enc = tk.get_encoding(name)
    ids = enc.encode(DECOMPOSED)
    assert main(["-e", name, "encode", DECOMPOSED]) == 0
    assert capsys.readouterr().out.split() == list(map(str, ids))
    assert main(["decode", "-e", name, ",".join(map(str, ids))]) == 0
    assert capsys.readouterr().out == enc.decode(ids) + "\n"
    assert main(["-e", name, "--color", "never", "trace", DECOMPOSED]) == 0
    out = capsys.readouterr().out
    expected = [line for chunk in enc.trace(DECOMPOSED) for line in format_trace(chunk, False)]
    assert out.splitlines() == expected
    traced = [int(r) for r in re.findall(r"merge rank (\d+) ->", out)]
    assert traced == [s.best for t in enc.trace(DECOMPOSED) for s in t.steps if s.best is not None]


@pytest.mark.parametrize("name", OPEN_MODELS)
def test_special_tokens_of_the_open_models(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    enc = tk.get_encoding(name)
    special = min(enc.special_tokens, key=enc.special_tokens.__getitem__)  # llama3: no eot_token
    assert main(["-e", name, "--special", "encode", f"a{special}b"]) == 0
    assert capsys.readouterr().out.split() == list(
        map(str, enc.encode(f"a{special}b", allowed_special="all"))
    )
    assert main(["-e", name, "encode", f"a{special}b"]) == 0  # without --special: plain text
    assert capsys.readouterr().out.split() == list(map(str, enc.encode_ordinary(f"a{special}b")))
    assert main(["-e", name, "decode", str(enc.n_vocab)]) == 2
    assert str(enc.n_vocab) in capsys.readouterr().err


def run_cli(*args: str | bytes, **options: object) -> subprocess.CompletedProcess[bytes]:
    """The command as a terminal runs it (bytes arguments: what no UTF-8 decoding produced)."""
    return subprocess.run(
        [sys.executable, "-m", "tokenizer", *args], cwd=ROOT, capture_output=True, **options
    )


def test_a_reader_that_stops_early_gets_no_traceback() -> None:
    """`| head -1` closed the pipe: a BrokenPipeError traceback, exit code 1."""
    with subprocess.Popen(
        [sys.executable, "-m", "tokenizer", "trace", "hello world " * 5_000],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    ) as process:  # fmt: skip
        assert process.stdout is not None and process.stderr is not None
        assert process.stdout.readline().startswith(b"chunk 'hello'")
        process.stdout.close()
        assert process.stderr.read() == b""


def test_a_terminal_that_cannot_show_the_output_gets_an_error_not_a_traceback() -> None:
    done = run_cli("trace", "é", env={**os.environ, "PYTHONIOENCODING": "ascii"})
    assert done.returncode == 2
    assert done.stderr.decode().startswith("error: the terminal's encoding (ascii)")


@pytest.mark.parametrize("where", ["argument", "stdin"])
def test_text_that_is_not_utf8_is_refused_not_read_as_u_fffd(where: str) -> None:
    """ "caf\\xe9" was encoded as "caf" and U+FFFD, without a word."""
    done = (
        run_cli("encode", b"caf\xe9")
        if where == "argument"
        else run_cli("encode", input=b"caf\xe9")
    )
    assert done.returncode == 2
    assert b"is not UTF-8 (byte 0xE9 at offset 3)" in done.stderr
    assert done.stdout == b""


@pytest.mark.parametrize("ids", ["-1", "99999999999", "4294967296"])
def test_ids_beyond_32_bits_or_below_0_are_an_error(
    ids: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["decode", ids]) == 2
    assert capsys.readouterr().err.startswith("error: ")
