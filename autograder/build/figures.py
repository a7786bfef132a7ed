"""The course's diagrams, drawn with matplotlib when the notebooks are built.

A markdown line `![alt](figure:NAME)` in an assignment becomes the attachment `NAME.png`,
so the picture travels inside the notebook (no network, no extra file) and the build's
staleness check compares its bytes. Hence `png(name)` returns the same bytes on every call
and in every process: matplotlib's own defaults (not the machine's matplotlibrc), fixed
figure sizes and dpi, no metadata, random numbers from private generators with fixed seeds.

The same pictures serve the English and the Chinese course, so every label is ASCII words
or mathtext: a machine without a CJK font draws them all. A glyph missing from the font is
an error, not a warning, while a figure is drawn.

One colour per role in every figure: inputs grey, queries blue, keys orange, values green,
scores and attention weights purple, contexts and outputs red; a projection matrix is a
lighter tint of the role it produces.
"""

from __future__ import annotations

import io
import math
import warnings
from collections.abc import Callable
from dataclasses import dataclass

import torch
from matplotlib import style
from matplotlib.colors import to_rgb
from matplotlib.figure import Figure
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch, Patch, Rectangle

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


# ---------------------------------------------------------------- the figures

def qkv_flow():
    """Inputs to queries, keys and values, scores, weights and the weighted sum."""
    fig, ax = canvas(32.5, 21)
    x = grid(ax, 0.5, 8.5, 3, 4, INPUT, name="$x$", shape="(seq, d_in)")
    roles = [("Q", QUERY, "$W_Q$", "(d_in, d_k)", "(seq, d_k)", 15),
             ("K", KEY, "$W_K$", "(d_in, d_k)", "(seq, d_k)", 8.5),
             ("V", VALUE, "$W_V$", "(d_in, d_v)", "(seq, d_v)", 2)]
    made = {}
    for role, color, w_name, w_shape, shape, bottom in roles:
        weight = grid(ax, 7, bottom, 4, 3, tint(color, 0.6), name=w_name, shape=w_shape)
        arrow(ax, x.east, weight.west)
        made[role] = grid(ax, 12.5, bottom + 0.5, 3, 3, color, name=f"${role}$", shape=shape)
        arrow(ax, weight.east, made[role].west)
    scores = grid(ax, 18, 12, 3, 3, WEIGHTS, name=r"$QK^\top$", shape="(seq, seq)")
    arrow(ax, made["Q"].east, (scores.left, scores.center_y + 0.6))
    arrow(ax, made["K"].east, (scores.left, scores.center_y - 0.6))
    example = [[0.7, 0.15, 0.15], [0.1, 0.8, 0.1], [0.15, 0.6, 0.25]]
    weights = grid(ax, 25.5, 12, 3, 3, WEIGHTS, name="$A$", shape="(seq, seq)",
                   cell_colors=weight_shading(example))
    arrow(ax, scores.east, weights.west, "softmax", size=SHAPE_SIZE + 1)
    note(ax, (scores.right + weights.left) / 2, scores.center_y - 0.45, "each row",
         size=SHAPE_SIZE, color=MUTED, va="top")
    context = grid(ax, 28.5, 3.5, 3, 3, CONTEXT, name="$Z = AV$", shape="(seq, d_v)")
    arrow(ax, (weights.center_x, weights.bottom - 1.5), (context.center_x - 0.5,
                                                         context.top + 1.4))
    arrow(ax, made["V"].east, context.west)
    return fig


def embedding_lookup():
    """A sentence's words become ids through the sorted vocabulary, and ids pick rows."""
    sentence = ["The", "sun", "rises", "in", "the", "east"]
    vocab = sorted(set(sentence))
    ids = [vocab.index(word) for word in sentence]
    row_colors = [tint(color, 0.55) for color in
                  ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b")]
    fig, ax = canvas(31, 15)
    top = 10.5  # top of the words, the table and x
    note(ax, 15.5, 14.2, '"The sun rises in the east"', size=NAME_SIZE)
    note(ax, 0.5, 12.3, "vocabulary (sorted):", size=NOTE_SIZE, ha="left")
    for index, word in enumerate(vocab):
        note(ax, 10 + index * 3.75, 12.3, f"{word} $\\to$ {index}", size=NOTE_SIZE,
             bbox={"boxstyle": "round,pad=0.25", "facecolor": row_colors[index],
                   "edgecolor": "none"})
    note(ax, 2, top + 0.7, "words", size=NOTE_SIZE, color=MUTED)
    note(ax, 6.2, top + 0.7, "ids", size=NOTE_SIZE, color=MUTED)
    for position, (word, token) in enumerate(zip(sentence, ids, strict=True)):
        y = top - position * 1.5 - 0.5
        note(ax, 2, y, word, size=NOTE_SIZE + 1)
        arrow(ax, (3.4, y), (5.4, y))
        note(ax, 6.2, y, str(token), size=NOTE_SIZE + 1,
             bbox={"boxstyle": "round,pad=0.3", "facecolor": row_colors[token],
                   "edgecolor": "none"})
    table_rows = len(vocab) + 2  # a table may hold more rows than the vocabulary needs
    table = grid(ax, 12, top - table_rows, table_rows, 3, INPUT,
                 cell_colors=[[row_colors[row] if row < len(vocab) else "white"] * 3
                              for row in range(table_rows)],
                 name="embedding table", shape="(vocab_size, dim)")
    for row in range(len(vocab)):
        note(ax, 11.3, top - row - 0.5, str(row), size=SHAPE_SIZE, color=MUTED)
    note(ax, table.center_x, top - len(vocab) - 1, r"$\vdots$", size=NOTE_SIZE, color=MUTED)
    x = grid(ax, 24, top - 6 - 0.5, 6, 3, INPUT, cell_colors=[[row_colors[t]] * 3 for t in ids],
             name="$x$", shape="(seq, dim)")
    for position, token in enumerate(ids):
        ax.add_patch(FancyArrowPatch((table.right, top - token - 0.5),
                                     (x.left, x.top - position - 0.5), arrowstyle="-|>",
                                     mutation_scale=7, color=tint(INK, 0.6), linewidth=0.8,
                                     shrinkA=1, shrinkB=1))
    arrow(ax, (7.3, top - 4), (10.6, top - 4), "row", size=SHAPE_SIZE)
    return fig


def scaling_saturation():
    """Softmax of unscaled and scaled scores of random vectors for growing d_k."""
    sizes = (4, 64, 512)
    keys_count = 8
    generator = torch.Generator().manual_seed(3)
    fig = Figure(figsize=(6.5, 3.6))
    axes = fig.subplots(2, len(sizes), sharex=True, sharey=True)
    for column, d_k in enumerate(sizes):
        query = torch.randn(d_k, generator=generator)
        keys = torch.randn(keys_count, d_k, generator=generator)
        scores = keys @ query  # (keys_count,)
        rows = (torch.softmax(scores, dim=-1), torch.softmax(scores / math.sqrt(d_k), dim=-1))
        for row, weights in enumerate(rows):
            ax = axes[row][column]
            ax.bar(range(keys_count), weights.tolist(), width=0.75,
                   color=tint(WEIGHTS, 0.9 - 0.35 * row))
            ax.set_ylim(0, 1.05)
            ax.set_xticks(range(keys_count), [str(j) for j in range(keys_count)], fontsize=7)
            ax.tick_params(axis="y", labelsize=7)
            ax.spines[["top", "right"]].set_visible(False)
        spread = scores.max().item() - scores.min().item()
        axes[0][column].set_title(f"$d_k = {d_k}$: scores span {spread:.0f}",
                                  fontsize=NOTE_SIZE)
        axes[1][column].set_xlabel("key $j$", fontsize=SHAPE_SIZE)
    axes[0][0].set_ylabel(r"softmax$(q \cdot k_j)$", fontsize=NOTE_SIZE)
    axes[1][0].set_ylabel(r"softmax$(q \cdot k_j / \sqrt{d_k})$", fontsize=NOTE_SIZE)
    fig.subplots_adjust(left=0.11, right=0.98, top=0.92, bottom=0.13, hspace=0.25, wspace=0.12)
    return fig


def self_attention_module():
    """The module's three parameters above the shapes its forward pass goes through."""
    fig, ax = canvas(36, 19.5, unit=0.18)
    bottom = 2.5
    ax.add_patch(FancyBboxPatch((5.2, 11.2), 17.1, 6.2, boxstyle="round,pad=0.2",
                                facecolor="#f4f4f4", edgecolor=MUTED, linewidth=1))
    note(ax, 13.75, 18.6, "SelfAttention(d_in=3, d_out_kq=2, d_out_v=4)", size=NOTE_SIZE,
         family="monospace")
    x = grid(ax, 1, bottom, 6, 3, INPUT, name="$x$", shape="(seq, d_in)")
    parts = [("W_query", "Q", QUERY, 2, "(d_in, d_k)", "(seq, d_k)", 6.5),
             ("W_key", "K", KEY, 2, "(d_in, d_k)", "(seq, d_k)", 11.5),
             ("W_value", "V", VALUE, 4, "(d_in, d_v)", "(seq, d_v)", 16.5)]
    for param, role, color, width, param_shape, shape, left in parts:
        weight = grid(ax, left, 12.8, 3, width, tint(color, 0.6), shape=param_shape)
        note(ax, weight.center_x, weight.top + 0.35, param, size=NOTE_SIZE, va="bottom",
             family="monospace")
        made = grid(ax, left, bottom, 6, width, color, name=f"${role}$", shape=shape)
        arrow(ax, (weight.center_x, weight.bottom - 1.3), (made.center_x, made.top + 1.2))
    ax.add_patch(FancyBboxPatch((5.7, bottom - 1.9), 15.6, 8.1, boxstyle="round,pad=0.2",
                                fill=False, edgecolor=MUTED, linewidth=0.8,
                                linestyle=(0, (3, 2))))
    arrow(ax, x.east, (5.5, x.center_y))
    weights = grid(ax, 23.5, bottom, 6, 6, WEIGHTS, name="weights", shape="(seq, seq)")
    note(ax, weights.center_x, weights.top + 2.1, r"softmax$(QK^\top/\sqrt{d_k})$",
         size=SHAPE_SIZE + 1)
    arrow(ax, (21.5, weights.center_y), weights.west)
    context = grid(ax, 31.5, bottom, 6, 4, CONTEXT, name="context", shape="(seq, d_v)")
    arrow(ax, weights.east, context.west, "@ V", size=SHAPE_SIZE)
    return fig


def bmm_stacking():
    """Three heads' matrices stacked, the input expanded as views, one torch.bmm."""
    h, d_k, d_in, seq = 3, 3, 4, 5
    fig, ax = canvas(36, 12.5, unit=0.18)
    bottom, title_y, middle = 3.5, 11.4, 5
    weights = stack(ax, 0.5, bottom, d_k, d_in, QUERY, h)
    note(ax, 6.6, middle, "@", size=NAME_SIZE)
    inputs = stack(ax, 7.5, bottom - 0.5, d_in, seq, INPUT, h, views=True)
    product = stack(ax, 18.5, bottom, d_k, seq, QUERY, h)
    queries = stack(ax, 30.5, bottom - 1, seq, d_k, QUERY, h)
    arrow(ax, (inputs.right + 0.3, middle), (product.left - 0.3, middle), "torch.bmm",
          size=SHAPE_SIZE + 1)
    arrow(ax, (product.right + 0.3, middle), (queries.left - 0.3, middle), "transpose",
          size=SHAPE_SIZE, text_side="below")
    for box, name, shape in ((weights, "W_query", "(h, d_k, d_in)"),
                             (inputs, "x.T.expand(h, -1, -1)", "(h, d_in, seq)"),
                             (product, r"slice $i$: $W_i\,x^\top$", "(h, d_k, seq)"),
                             (queries, "queries", "(h, seq, d_k)")):
        note(ax, box.center_x, title_y, name, size=NOTE_SIZE)
        note(ax, box.center_x, 1.2, shape, size=SHAPE_SIZE, color=MUTED, family="monospace")
    for box, text in ((weights, "h matrices"), (inputs, "views: no copy"),
                      (product, "all heads, one call")):
        note(ax, box.center_x, title_y - 1.1, text, size=SHAPE_SIZE, color=MUTED)
    return fig


def heads_split_merge():
    """Queries split into heads, attention in each head, heads concatenated, projected."""
    h, d, seq = 3, 2, 3
    fig, ax = canvas(37, 19, unit=0.175)
    head_colors, out_colors = shades(QUERY, h), shades(CONTEXT, h)
    middle = 8.5
    queries = grid(ax, 0.5, middle, seq, h * d, QUERY, name="$Q$", shape="(seq, h*d)",
                   cell_colors=[[head_colors[col // d] for col in range(h * d)]] * seq)
    merged = grid(ax, 22, middle, seq, h * d, CONTEXT, name=r"$[Z_0\ Z_1\ Z_2]$",
                  shape="(seq, h*d)",
                  cell_colors=[[out_colors[col // d] for col in range(h * d)]] * seq)
    for head in range(h):
        bottom = 14 - head * 5
        piece = grid(ax, 9.5, bottom, seq, d, QUERY, name=f"$Q_{head}$",
                     cell_colors=[[head_colors[head]] * d] * seq)
        out = grid(ax, 16, bottom, seq, d, CONTEXT, name=f"$Z_{head}$",
                   cell_colors=[[out_colors[head]] * d] * seq)
        arrow(ax, queries.east, piece.west, "split" if head == 1 else None, size=SHAPE_SIZE)
        arrow(ax, piece.east, out.west, "attention", size=SHAPE_SIZE)
        arrow(ax, out.east, merged.west, "concat" if head == 1 else None, size=SHAPE_SIZE)
    for left in (9.5, 16):
        note(ax, left + 1, 3.1, "(h, seq, d)", size=SHAPE_SIZE, color=MUTED,
             family="monospace")
    output = grid(ax, 30.5, middle, seq, h * d, CONTEXT, name="output", shape="(seq, h*d)")
    arrow(ax, merged.east, output.west, "$\\times W_O$", size=NOTE_SIZE)
    note(ax, 18.5, 0.4, r"head $i$: softmax$(Q_i K_i^\top/\sqrt{d})\,V_i$;  "
         "$K$ and $V$ split the same way", size=SHAPE_SIZE + 1, va="bottom")
    return fig


def row_column_layout():
    """The same three inputs as rows of x and as columns of X."""
    n, d, d_out = 3, 4, 2
    fig, ax = canvas(32.5, 13.5)
    input_colors, query_colors = shades(INPUT, n), shades(QUERY, n)
    weight_color = tint(QUERY, 0.6)
    note(ax, 7.5, 12.8, "rows: $x\\,W$", size=NAME_SIZE)
    note(ax, 24.5, 12.8, "columns: $W^\\top X$", size=NAME_SIZE)
    bottom = 4.5
    grid(ax, 0.5, bottom + 0.5, n, d, INPUT, name="$x$", shape="(seq, d)",
         cell_colors=[[input_colors[row]] * d for row in range(n)])
    note(ax, 5.5, bottom + 2, "@", size=NAME_SIZE)
    grid(ax, 6.5, bottom, d, d_out, weight_color, name="$W$", shape="(d, d_out)")
    note(ax, 9.5, bottom + 2, "=", size=NAME_SIZE)
    grid(ax, 10.5, bottom + 0.5, n, d_out, QUERY, name="$x\\,W$", shape="(seq, d_out)",
         cell_colors=[[query_colors[row]] * d_out for row in range(n)])
    ax.plot([15.75, 15.75], [2, 12], color=tint(INK, 0.3), linewidth=1)
    grid(ax, 17, bottom + 1, d_out, d, weight_color, name="$W^\\top$", shape="(d_out, d)")
    note(ax, 22, bottom + 2, "@", size=NAME_SIZE)
    grid(ax, 23, bottom, d, n, INPUT, name="$X = x^\\top$", shape="(d, N)",
         cell_colors=[[input_colors[col] for col in range(n)]] * d)
    note(ax, 27, bottom + 2, "=", size=NAME_SIZE)
    grid(ax, 28, bottom + 1, d_out, n, QUERY, name="$W^\\top X$", shape="(d_out, N)",
         cell_colors=[[query_colors[col] for col in range(n)]] * d_out)
    note(ax, 16.25, 0.8, "input $i$: row $i$ of $x$, column $i$ of $X$;   "
         "$W^\\top X = (x\\,W)^\\top$", size=NOTE_SIZE)
    return fig


def cross_attention():
    """Queries from a 3-position sequence, keys and values from a 5-position one."""
    n_query, n_context = 3, 5
    generator = torch.Generator().manual_seed(3)
    weights = torch.softmax(torch.randn(n_query, n_context, generator=generator) * 1.5, -1)
    fig, ax = canvas(30, 18.5, unit=0.215)
    top_row, bottom_row = 12.5, 2
    x_query = grid(ax, 0.5, top_row, n_query, 4, INPUT, name="x_query", shape="(3, d_in)")
    x_context = grid(ax, 0.5, bottom_row, n_context, 4, tint(INPUT, 0.6), name="x_context",
                     shape="(5, d_in)")
    queries = grid(ax, 8, top_row, n_query, 3, QUERY, name="$Q$", shape="(3, d_k)")
    keys = grid(ax, 8, bottom_row, n_context, 3, KEY, name="$K$", shape="(5, d_k)")
    values = grid(ax, 13, bottom_row, n_context, 3, VALUE, name="$V$", shape="(5, d_v)")
    arrow(ax, x_query.east, queries.west, "$W_Q$")
    ax.add_patch(FancyBboxPatch((keys.left - 0.6, keys.bottom - 1.6), 10.2, 7.8,
                                boxstyle="round,pad=0.2", fill=False, edgecolor=MUTED,
                                linewidth=0.8, linestyle=(0, (3, 2))))
    arrow(ax, x_context.east, (keys.left - 0.8, x_context.center_y), "$W_K$, $W_V$",
          size=SHAPE_SIZE + 1)
    scores_box = grid(ax, 14, top_row - 0.9, n_query, n_context, WEIGHTS, name="weights",
                      shape="(3, 5)", cell=1.3, cell_colors=weight_shading(weights.tolist()),
                      texts=[[f"{w:.2f}" for w in row] for row in weights.tolist()],
                      text_size=7)
    arrow(ax, queries.east, scores_box.west)
    arrow(ax, keys.north, (scores_box.left + 1.3, scores_box.bottom - 1.6))
    output = grid(ax, 26, top_row, n_query, 3, CONTEXT, name="output", shape="(3, d_v)")
    arrow(ax, scores_box.east, output.west)
    arrow(ax, values.north, (output.center_x - 0.5, output.bottom - 1.6))
    note(ax, 24.5, 5.5, "one row per query;\nrows of weights sum to 1", size=NOTE_SIZE,
         color=MUTED)
    return fig


def causal_mask():
    """The causal mask, the masked scores and the weights that result."""
    n = 5
    generator = torch.Generator().manual_seed(11)
    scores = torch.randn(n, n, generator=generator)
    masked = torch.ones(n, n, dtype=torch.bool).triu(diagonal=1)  # True: the future
    weights = torch.softmax(scores.masked_fill(masked, float("-inf")), dim=-1)
    fig, ax = canvas(26, 10.5, unit=0.25)
    allowed, hidden = tint(WEIGHTS, 0.25), "#555555"
    bottom = 2.5

    def table(fill):
        return [[fill(r, c) for c in range(n)] for r in range(n)]

    grid(ax, 1, bottom, n, n, INK, name="mask",
         cell_colors=table(lambda r, c: hidden if masked[r, c] else allowed))
    grid(ax, 10.5, bottom, n, n, WEIGHTS, name="scores",
         cell_colors=table(lambda r, c: "#e6e6e6" if masked[r, c] else tint(WEIGHTS, 0.3)),
         texts=table(lambda r, c: r"$-\infty$" if masked[r, c]
                     else number(scores[r, c].item(), 1)))
    grid(ax, 20, bottom, n, n, WEIGHTS, name="weights",
         cell_colors=weight_shading(weights.tolist()),
         texts=table(lambda r, c: "0" if masked[r, c] else number(weights[r, c].item(), 2)))
    arrow(ax, (6.5, bottom + 2.5), (10, bottom + 2.5), "fill $-\\infty$", size=SHAPE_SIZE)
    arrow(ax, (16, bottom + 2.5), (19.5, bottom + 2.5), "softmax", size=SHAPE_SIZE)
    note(ax, 0.5, bottom + 2.5, "query", size=SHAPE_SIZE, color=MUTED, rotation=90)
    note(ax, 3.5, bottom - 0.5, "key", size=SHAPE_SIZE, color=MUTED)
    note(ax, 22.5, bottom - 0.5, "each row sums to 1", size=SHAPE_SIZE, color=MUTED)
    ax.legend(handles=[Patch(facecolor=allowed, label="allowed (False)"),
                       Patch(facecolor=hidden, label="masked (True)")],
              loc="lower left", bbox_to_anchor=(0.02, 0.0), ncol=2, fontsize=SHAPE_SIZE,
              frameon=False)
    return fig


FIGURES: dict[str, Callable[[], Figure]] = {
    "qkv_flow": qkv_flow,
    "embedding_lookup": embedding_lookup,
    "scaling_saturation": scaling_saturation,
    "self_attention_module": self_attention_module,
    "bmm_stacking": bmm_stacking,
    "heads_split_merge": heads_split_merge,
    "row_column_layout": row_column_layout,
    "cross_attention": cross_attention,
    "causal_mask": causal_mask,
}


def png(name):
    """The figure `name` as PNG bytes, identical on every call and in every process.

    Drawn under matplotlib's default style (whatever the machine's matplotlibrc says), with
    every warning an error, so a glyph missing from the font stops the build.
    """
    if name not in FIGURES:
        raise KeyError(f"no figure named {name!r}; the figures are: {', '.join(FIGURES)}")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with style.context("default"):
            fig = FIGURES[name]()
            buffer = io.BytesIO()
            fig.savefig(buffer, format="png", dpi=DPI, facecolor="white",
                        metadata={"Software": None})
    fig.clear()
    return buffer.getvalue()
