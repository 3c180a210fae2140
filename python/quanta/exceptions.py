"""The exceptions quanta raises.

Every error is a :class:`QuantaError`. Bad input (an unknown game or option, unreadable
notation, an illegal action) also subclasses :class:`ValueError`, so ``except ValueError`` works
as it would for any other bad argument. A call that raises changes nothing.
"""

from __future__ import annotations

from typing import Any


class QuantaError(Exception):
    """Base class of every quanta error."""


class IllegalMoveError(QuantaError, ValueError):
    """An action that is not legal in the state it was played in, or no action at all."""


class InvalidNotationError(QuantaError, ValueError):
    """Text that is not a valid position (or action) in the game's notation."""


class InvalidOptionError(QuantaError, ValueError):
    """An unknown game, an unknown option, or an option value out of range."""


class NotApplicableError(InvalidOptionError):
    """A call given a state it does not apply to: another game's state, a chance node where a
    decision is needed, a game of the wrong kind (a solitaire solver given two players), or
    something that is not a state at all. A bad argument, so also an
    :class:`InvalidOptionError` (and a ``ValueError``)."""


class SearchLimitError(QuantaError):
    """A solver hit its time, node or memory budget before it finished.

    ``nodes`` and ``seconds`` say how much work was done; ``partial`` carries whatever the
    search had established (solver-specific, or ``None``).
    """

    def __init__(self, message: str, nodes: int = 0, seconds: float = 0.0, partial: Any = None):
        super().__init__(message)
        self.nodes = nodes
        self.seconds = seconds
        self.partial = partial


class DamagedResultError(QuantaError):
    """A result on disk that cannot be read back whole: a part file of a job's directory
    (``part-00003.parquet``) cut short or corrupted, named in the message. Running the job
    again (:func:`quanta.jobs.run` on the same directory) redoes that part."""


class DirectoryInUseError(QuantaError):
    """A job's directory that another run holds: its lock names the holder (host, process,
    start time), and the message says so. A lock left by a run that was killed is released with
    its process, and the next run takes it over."""


def quoted(value: Any) -> str:
    """``value`` as a message shows it: its ``repr``, at most about 80 characters; a longer
    text is cut with an ellipsis and its length, ``"xxx…" (1,000,000 characters)``. The one
    way quanta's messages quote a caller's input (the Rust core's notation errors too), so a
    message never grows with the input."""
    from ._core import quote

    return quote(value)


__all__ = [
    "QuantaError",
    "DamagedResultError",
    "DirectoryInUseError",
    "IllegalMoveError",
    "InvalidNotationError",
    "InvalidOptionError",
    "NotApplicableError",
    "SearchLimitError",
]
