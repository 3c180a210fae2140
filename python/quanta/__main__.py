"""``python -m quanta``: the ``quanta`` command."""

from quanta.cli import main

if __name__ == "__main__":
    main()
