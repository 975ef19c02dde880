"""Entry point: ``python -m oracle ...``."""
import sys

from oracle.cli import main

sys.exit(main(sys.argv[1:]))
