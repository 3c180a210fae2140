"""``python -m quanta``: the ``quanta`` command."""

from quanta.cli import main

main()
