"""What the games' SVG pictures have in common: numbers written short, the opening tag on a white
background, the font, the square grid with its coordinates, the caption lines and the closing tag.
"""

from __future__ import annotations

import numbers
from xml.sax.saxutils import escape

from .exceptions import InvalidOptionError, quoted

#: The font attribute of every text in the pictures.
FONT = "font-family='Helvetica, Arial, sans-serif'"

_INK = "#222222"  # the caption's colour
_BACK = "#3b5b92"  # a face-down card's colour

#: A generous width of one character of :data:`FONT`, in ems: Helvetica's and Arial's letters
#: but W and M stay under it (digits are 0.56), so a line measured with it fits its picture.
EM_PER_CHAR = 0.6


#: The largest size a picture's option may ask for, in pixels: far beyond any screen, and small
#: enough that no coordinate overflows.
MAX_PIXELS = 100_000.0


def pixels(name: str, value: object, above: float = 0.0) -> float:
    """``value`` as a float, checked to be a finite number of pixels above ``above`` (a
    picture's margins) and at most :data:`MAX_PIXELS`; anything else (zero, negative, NaN,
    infinite, not a number at all) raises :class:`~quanta.InvalidOptionError` naming ``name``
    and what is expected, e.g. "cell must be a positive number of pixels, not -3"."""
    shown = quoted(value)
    # (NaN is not equal to itself; comparing, unlike float(), works for ints of any size.)
    if isinstance(value, numbers.Real) and not isinstance(value, bool) and value == value:
        # (typeshed's numbers.Real declares only < and <=, so mypy cannot read float < Real.)
        if above < value <= MAX_PIXELS:  # type: ignore[operator]
            return float(value)
        if value > MAX_PIXELS:  # type: ignore[operator]
            raise InvalidOptionError(
                f"{name} must be a number of pixels up to {num(MAX_PIXELS)}, not {shown}"
            )
    if above == 0:
        expected = "a positive number of pixels"
    else:
        expected = f"a number of pixels above {num(above)}"
    raise InvalidOptionError(f"{name} must be {expected}, not {shown}")


def viewer(value: object, players: int) -> int | None:
    """``value`` checked as a picture's viewer: ``None`` (nobody in particular) or a player from
    0 to ``players - 1``; anything else raises :class:`~quanta.InvalidOptionError`."""
    if value is None or (
        isinstance(value, int) and not isinstance(value, bool) and 0 <= value < players
    ):
        return value
    raise InvalidOptionError(
        f"viewer must be None or a player from 0 to {players - 1}, not {quoted(value)}"
    )


def num(x: float) -> str:
    """``x`` rounded to one decimal, without trailing zeros: 44.0 -> ``44``, 12.34 -> ``12.3``."""
    return f"{x:.1f}".rstrip("0").rstrip(".")


def start(width: float, height: float) -> list[str]:
    """The opening ``<svg>`` tag of a ``width`` x ``height`` picture and its white background."""
    return [
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{num(width)}' height='{num(height)}' "
        f"viewBox='0 0 {num(width)} {num(height)}'>",
        f"<rect x='0' y='0' width='{num(width)}' height='{num(height)}' fill='white'/>",
    ]


def square_grid(
    left: float, top: float, cell: float, side: int, row_numbers_x: float, colour: str
) -> list[str]:
    """The lines of a ``side`` x ``side`` grid of ``cell``-pixel squares, its top left corner at
    (``left``, ``top``), with the column letters (a, b, ...) above it and the row numbers (1, 2,
    ...) to its left, centred on ``row_numbers_x``; all in ``colour``."""
    size = cell * side
    out = []
    for i in range(side + 1):
        out.append(
            f"<line x1='{num(left)}' y1='{num(top + i * cell)}' x2='{num(left + size)}' "
            f"y2='{num(top + i * cell)}' stroke='{colour}' stroke-width='1'/>"
        )
        out.append(
            f"<line x1='{num(left + i * cell)}' y1='{num(top)}' x2='{num(left + i * cell)}' "
            f"y2='{num(top + size)}' stroke='{colour}' stroke-width='1'/>"
        )
    for i in range(side):
        out.append(
            f"<text x='{num(left + (i + 0.5) * cell)}' y='{num(top - 6)}' text-anchor='middle' "
            f"font-size='12' {FONT} fill='{colour}'>{chr(ord('a') + i)}</text>"
        )
        out.append(
            f"<text x='{num(row_numbers_x)}' y='{num(top + (i + 0.5) * cell + 4)}' "
            f"text-anchor='middle' font-size='12' {FONT} fill='{colour}'>{i + 1}</text>"
        )
    return out


def caption(x: float, y: float, content: str) -> str:
    """A line of text under the picture (a status, a score), its baseline starting at (x, y)."""
    return (
        f"<text x='{num(x)}' y='{num(y)}' font-size='12' {FONT} fill='{_INK}'>"
        f"{escape(content)}</text>"
    )


def text_width(content: str, size: float = 12) -> float:
    """A generous estimate of how wide ``content`` is drawn at ``size`` pixels
    (:data:`EM_PER_CHAR` a character)."""
    return EM_PER_CHAR * size * len(content)


def fit(width: float, x: float, lines: list[str], size: float = 12, margin: float = 8) -> float:
    """``width``, widened if need be so that each of ``lines`` written from ``x`` at ``size``
    pixels ends at least ``margin`` pixels inside the picture."""
    return max([width, *(x + text_width(line, size) + margin for line in lines)])


def back(x: float, y: float, width: float, height: float, title: str = "") -> list[str]:
    """A face-down card whose top left corner is at (``x``, ``y``), with a tooltip ``title``."""
    tip = f"<title>{escape(title)}</title>" if title else ""
    return [
        f"<rect x='{num(x)}' y='{num(y)}' width='{num(width)}' height='{num(height)}' "
        f"rx='{num(min(width, height) * 0.12)}' fill='{_BACK}' stroke='#1d2f52' "
        f"stroke-width='1'>{tip}</rect>",
        f"<rect x='{num(x + 3)}' y='{num(y + 3)}' width='{num(max(width - 6, 0))}' "
        f"height='{num(max(height - 6, 0))}' rx='{num(min(width, height) * 0.08)}' fill='none' "
        f"stroke='#9fb3d9' stroke-width='0.8'/>",
    ]


def finish(out: list[str]) -> str:
    """The picture whose elements are ``out``, closed."""
    return "\n".join([*out, "</svg>"])
