"""Run tiktoken's own test suite against this package, through a throwaway `tiktoken` alias.

Usage (from anywhere; nothing of tiktoken is kept in this repository)::

    python tests/tiktoken_suite.py /path/to/tiktoken-checkout [pytest args...]

The checkout is any copy of https://github.com/openai/tiktoken at the tag to test (0.14.0); only
its ``tests/`` folder is used. The script writes, in a temporary directory, a package named
`tiktoken` whose modules re-export `tokenizer` (``tiktoken``, ``tiktoken.core``,
``tiktoken.registry``, ``tiktoken.model``), copies the checkout's ``tests/`` beside it and runs
pytest there, with the alias first on ``PYTHONPATH``: neither an installed tiktoken nor the
checkout's own source package (which pytest would put on the path from the checkout's root) can
shadow it. The tests that need p50k_base or p50k_edit fail by design: those vocabularies have no
offline data here.
"""

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

ALIAS = {
    "__init__.py": (
        "from tokenizer import Encoding, encoding_for_model, encoding_name_for_model\n"
        "from tokenizer import get_encoding, list_encoding_names\n"
        '__version__ = "0.14.0+bpe-lens"\n'
    ),
    "core.py": "from tokenizer.encoding import Encoding\n",
    "registry.py": "from tokenizer.loaders import get_encoding, list_encoding_names\n",
    "model.py": "from tokenizer.models import *  # noqa: F403\n",
}


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    checkout = Path(sys.argv[1]).resolve()
    tests = checkout / "tests"
    if not tests.is_dir():
        print(f"{checkout} has no tests/ folder", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="tiktoken-alias-") as alias:
        package = Path(alias) / "tiktoken"
        package.mkdir()
        for name, source in ALIAS.items():
            (package / name).write_text(source, encoding="utf-8")
        shutil.copytree(tests, Path(alias) / "tests")
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([alias, str(ROOT), env.get("PYTHONPATH", "")])
        command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "tests"]
        return subprocess.run([*command, *sys.argv[2:]], cwd=alias, env=env).returncode


if __name__ == "__main__":
    sys.exit(main())
