"""python3 -m navbake: see navbake.cli."""
import sys

from .cli import main

sys.exit(main())
