"""The command line: encode, decode and trace, as a class would use them."""

import subprocess
import sys
from pathlib import Path

import pytest

from tokenizer.cli import main

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


def test_trace_shows_ranks(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--color", "never", "trace", " OpenAI"]) == 0
    out = capsys.readouterr().out
    for rank in ["<12>", "<184>", "<3361>", "<4690>", "<19929>"]:
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
