"""Entry point for `python -m tokenizer`."""

import sys

from tokenizer.cli import main

sys.exit(main())
