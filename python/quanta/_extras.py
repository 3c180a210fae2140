"""The one place that says how to install an optional extra: ``pip install '<name>[extra]'``,
the distribution's name read from the installed package's metadata (it may differ from the
import name ``quanta``), else :data:`DISTRIBUTION`."""

from __future__ import annotations

import importlib

#: The distribution's name when no installed metadata says it (a source tree on the path).
DISTRIBUTION = "quanta"


def distribution() -> str:
    """The name ``pip`` installs this package by: from the metadata of the distribution that
    provides the ``quanta`` package, else :data:`DISTRIBUTION`. (Read when an extra is
    missing, so not kept.)"""
    try:
        from importlib.metadata import packages_distributions

        names = packages_distributions().get("quanta", [])
    except Exception:  # broken or unreadable metadata: the fallback below
        names = []
    return names[0] if len(names) == 1 else DISTRIBUTION


def install(extra: str) -> str:
    """The command that installs ``extra``: ``pip install 'quanta[jobs]'``."""
    return f"pip install '{distribution()}[{extra}]'"


def require(user: str, extra: str, *modules: str) -> None:
    """Imports ``modules`` (what ``user`` needs), or raises one :class:`ImportError` line
    naming the missing module and the command that installs ``extra``."""
    for module in modules:
        try:
            importlib.import_module(module)
        except ImportError as e:
            missing = e.name or module
            raise ImportError(f"{user} needs {missing}: {install(extra)}", name=missing) from None
