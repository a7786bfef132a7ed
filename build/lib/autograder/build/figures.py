"""The toolkit a course's diagrams are drawn with when the notebooks are built.

An assignment's figures.py maps names to functions that draw a matplotlib Figure with these
pieces (FIGURES = {"qkv_flow": qkv_flow}); a markdown line `![alt](figure:NAME)` of its
notebook.py becomes the attachment `NAME.png`, so the picture travels inside the notebook
(no network, no extra file) and the build's staleness check compares its bytes. Hence
`png(draw)` returns the same bytes on every call and in every process: matplotlib's own
defaults (not the machine's matplotlibrc), fixed figure sizes and dpi, no metadata; a drawing
that needs random numbers takes them from a private generator with a fixed seed.

A figure's words are in the course's language: its figures.py passes each through `t`, and
its zh.py gives the Chinese. The English course's are drawn in matplotlib's own DejaVu Sans;
the Chinese course's in DejaVu Sans too, falling back to the CJK font the kit ships
(plumbing/kit_font.py) for each character DejaVu lacks, so they draw alike on every machine the kit
is installed on. A Chinese text is plain text, not mathtext (mathtext has no such fallback): a
formula in it is written with Unicode (Wᵀ, √d, −∞). A glyph missing from the font is an
error, not a warning, while a figure is drawn.

One colour per role in every figure: inputs grey, queries blue, keys orange, values green,
scores and attention weights purple, contexts and outputs red; a projection matrix is a
lighter tint of the role it produces.
"""

from __future__ import annotations

import functools
import io
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from matplotlib import font_manager, get_data_path, rcParams, style
from matplotlib.colors import to_rgb
from matplotlib.figure import Figure
from matplotlib.patches import FancyArrowPatch, Rectangle

from autograder.i18n import DEFAULT, current, t
from autograder.plumbing.errors import KitError
from autograder.plumbing.kit_font import KIT_FONT, kit_font_path

DPI = 100
MAX_WIDTH_INCHES = 6.5

INPUT = "#7f7f7f"
QUERY = "#1f77b4"
KEY = "#ff7f0e"
VALUE = "#2ca02c"
WEIGHTS = "#9467bd"
CONTEXT = "#d62728"
INK = "#333333"
MUTED = "#666666"

NAME_SIZE = 11
SHAPE_SIZE = 8
NOTE_SIZE = 9


def tint(color, amount):
    """`color` mixed with white: amount 1 is the colour itself, 0 is white."""
    return tuple(1 - amount * (1 - channel) for channel in to_rgb(color))


def shades(color, count):
    """`count` tints of one colour from dark to light, one per head or per input."""
    return [tint(color, 0.85 - 0.55 * index / max(count - 1, 1)) for index in range(count)]


# ---------------------------------------------------------------- the canvas and its pieces

@dataclass(frozen=True)
class Box:
    """Where a drawn matrix sits, in cell units (one cell of a grid is 1 x 1)."""

    left: float
    bottom: float
    width: float
    height: float

    @property
    def right(self):
        return self.left + self.width

    @property
    def top(self):
        return self.bottom + self.height

    @property
    def center_x(self):
        return self.left + self.width / 2

    @property
    def center_y(self):
        return self.bottom + self.height / 2

    @property
    def east(self):
        return (self.right, self.center_y)

    @property
    def west(self):
        return (self.left, self.center_y)

    @property
    def north(self):
        return (self.center_x, self.top)

    @property
    def south(self):
        return (self.center_x, self.bottom)


def canvas(width, height, unit=0.2):
    """A blank figure whose one axes spans it, with `width` x `height` cell units of
    `unit` inches each; equal aspect, so a cell is a square."""
    inches = (width * unit, height * unit)
    assert inches[0] <= MAX_WIDTH_INCHES + 1e-9, f"figure {inches[0]:.2f} in wide"
    fig = Figure(figsize=inches)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, width)
    ax.set_ylim(0, height)
    ax.set_aspect("equal")
    ax.axis("off")
    return fig, ax


def grid(ax, left, bottom, rows, cols, color, *, name=None, shape=None, cell_colors=None,
         texts=None, text_size=7, cell=1.0):
    """A matrix drawn as `rows` x `cols` cells of side `cell`; its name above, its shape
    below. cell_colors[r][c] overrides the fill of one cell, texts[r][c] writes into it."""
    fill = tint(color, 0.45)
    for row in range(rows):
        for col in range(cols):
            face = cell_colors[row][col] if cell_colors is not None else fill
            x, y = left + col * cell, bottom + (rows - 1 - row) * cell
            ax.add_patch(Rectangle((x, y), cell, cell, facecolor=face, edgecolor="white",
                                   linewidth=0.8))
            if texts is not None and texts[row][col]:
                ax.text(x + cell / 2, y + cell / 2, texts[row][col], ha="center",
                        va="center", fontsize=text_size, color=INK)
    box = Box(left, bottom, cols * cell, rows * cell)
    ax.add_patch(Rectangle((left, bottom), box.width, box.height, fill=False, edgecolor=color,
                           linewidth=1.2))
    label(ax, box, name, shape)
    return box


def label(ax, box, name=None, shape=None, gap=0.35):
    """Name above a box, shape below it."""
    if name:
        ax.text(box.center_x, box.top + gap, name, ha="center", va="bottom",
                fontsize=NAME_SIZE, color=INK)
    if shape:
        ax.text(box.center_x, box.bottom - gap, shape, ha="center", va="top",
                fontsize=SHAPE_SIZE, color=MUTED, family="monospace")


def arrow(ax, start, end, text=None, *, text_offset=0.35, size=NOTE_SIZE,
          text_side="above"):
    """An arrow from `start` to `end`, with `text` above (or below) its middle."""
    ax.add_patch(FancyArrowPatch(start, end, arrowstyle="-|>", mutation_scale=10, color=INK,
                                 linewidth=1.1, shrinkA=3, shrinkB=3))
    if text:
        middle = ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2)
        above = text_side == "above"
        ax.text(middle[0], middle[1] + (text_offset if above else -text_offset), text,
                ha="center", va="bottom" if above else "top", fontsize=size, color=INK)


def note(ax, x, y, text, *, size=NOTE_SIZE, color=INK, ha="center", va="center", **kwargs):
    """Free text at (x, y) in cell units."""
    ax.text(x, y, text, ha=ha, va=va, fontsize=size, color=color, **kwargs)


def stack(ax, left, bottom, rows, cols, color, count, *, offset=0.7, views=False):
    """`count` matrices drawn one behind the other (a 3-d tensor, first axis into the page);
    returns the box around all of them.

    With `views` the slices behind the front one are dashed outlines: views of the front
    one, not copies. Otherwise each slice has its own shade.
    """
    for index in reversed(range(count)):
        x, y = left + index * offset, bottom + index * offset
        if views and index > 0:
            ax.add_patch(Rectangle((x, y), cols, rows, facecolor="white", edgecolor=color,
                                   linewidth=1.0, linestyle=(0, (3, 2))))
            continue
        ax.add_patch(Rectangle((x, y), cols, rows, facecolor="white", edgecolor="none"))
        grid(ax, x, y, rows, cols, color if views else shades(color, count)[index])
    return Box(left, bottom, cols + (count - 1) * offset, rows + (count - 1) * offset)


def weight_shading(weights):
    """Cell colours for a table of attention weights: the larger, the darker."""
    return [[tint(WEIGHTS, 0.08 + 0.85 * value) for value in row] for row in weights]


def number(value, digits):
    """`value` rounded for a cell, never as "-0.0"."""
    return f"{round(value, digits) + 0.0:.{digits}f}"  # -0.0 + 0.0 is 0.0


# ---------------------------------------------------------------- drawn as PNG

@functools.cache
def own_fonts_first():
    """Put matplotlib's own fonts first in its font manager, once per process.

    The manager is read from a cache in the user's home, which another process may have
    written without them (another environment's matplotlib, one that could not list its data
    folder): labels then fall back to the system's fonts, or lose their italics, and a figure's
    bytes change with the machine. Ties go to the first font listed, so ours win.
    """
    manager = font_manager.fontManager
    own = Path(get_data_path(), "fonts", "ttf")
    others = [font for font in manager.ttflist if Path(font.fname).parent != own]
    manager.ttflist = []
    for path in sorted(own.glob("*.ttf")):
        manager.addfont(path)  # clears the manager's memo of which font it found
    manager.ttflist.extend(others)


def cjk_fallback():
    """The fonts a Chinese course's figure is drawn in: DejaVu Sans (the English course's
    default), then the kit's CJK font for each character DejaVu Sans lacks."""
    if kit_font_path() is None:
        raise KitError(t("the figures of a Chinese course are drawn with the kit's CJK font, "
                         "which is not installed: pip install noto-cjk-sans-otc==0.0.1 (a "
                         "dependency of the kit's package)"))
    return ["DejaVu Sans", KIT_FONT]


def png(draw: Callable[[], Figure]) -> bytes:
    """What `draw` draws, as PNG bytes, identical on every call and in every process.

    Drawn with matplotlib's own fonts under its default style (whatever the machine's fonts,
    font cache and matplotlibrc), with every warning an error, so a glyph missing from the
    font stops the build.
    """
    own_fonts_first()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with style.context("default"):
            if current() != DEFAULT:
                rcParams["font.family"] = cjk_fallback()
            fig = draw()
            buffer = io.BytesIO()
            fig.savefig(buffer, format="png", dpi=DPI, facecolor="white",
                        metadata={"Software": None})
    fig.clear()
    return buffer.getvalue()
