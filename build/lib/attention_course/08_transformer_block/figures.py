"""The diagrams of 08_transformer_block, drawn at build time with the kit's toolkit
(autograder/build/figures.py): a markdown line `![...](figure:NAME)` of notebook.py
embeds FIGURES[NAME] as a PNG."""

from matplotlib.figure import Figure
from matplotlib.patches import Circle, FancyArrowPatch, FancyBboxPatch

from autograder.build.figures import (
    CONTEXT,
    INK,
    INPUT,
    MUTED,
    NAME_SIZE,
    NOTE_SIZE,
    QUERY,
    SHAPE_SIZE,
    WEIGHTS,
    arrow,
    canvas,
    note,
    tint,
)
from autograder.i18n import t

from .reference import sinusoidal_positions


def position_bands():
    """The sinusoidal encodings of 40 positions over 32 columns, as a heatmap."""
    seq_len, d_model = 40, 32
    table = sinusoidal_positions(seq_len, d_model)
    fig = Figure(figsize=(6.2, 3.4))
    ax = fig.add_axes((0.1, 0.16, 0.74, 0.72))
    image = ax.imshow(table.numpy(), cmap="RdBu", vmin=-1, vmax=1, aspect="auto",
                      interpolation="nearest")
    ax.set_xlabel(t("column (even: sin, odd: cos)"), fontsize=NOTE_SIZE, color=INK)
    ax.set_ylabel(t("position p"), fontsize=NOTE_SIZE, color=INK)
    ax.set_xticks(range(0, d_model, 4))
    ax.set_yticks(range(0, seq_len, 5))
    ax.tick_params(labelsize=SHAPE_SIZE, colors=MUTED)
    ax.set_title(r"$PE_{p,2i} = \sin(p / 10000^{2i/d})$,  $PE_{p,2i+1} = \cos(\dots)$",
                 fontsize=NOTE_SIZE, color=INK)
    bar = fig.colorbar(image, ax=ax, cax=fig.add_axes((0.87, 0.16, 0.025, 0.72)))
    bar.ax.tick_params(labelsize=SHAPE_SIZE, colors=MUTED)
    return fig


def box(ax, x, y, width, height, text, color):
    """A rounded box centred at (x, y) with `text` inside; returns its left and right ends."""
    ax.add_patch(FancyBboxPatch((x - width / 2, y - height / 2), width, height,
                                boxstyle="round,pad=0.15", facecolor=tint(color, 0.3),
                                edgecolor=color, linewidth=1.2))
    note(ax, x, y, text, size=SHAPE_SIZE + 1)
    return (x - width / 2 - 0.15, y), (x + width / 2 + 0.15, y)


def plus(ax, x, y):
    """The circle where a residual is added; returns its west, east and north points."""
    ax.add_patch(Circle((x, y), 0.55, facecolor="white", edgecolor=INK, linewidth=1.2))
    note(ax, x, y + 0.05, "+", size=NAME_SIZE)
    return (x - 0.55, y), (x + 0.55, y), (x, y + 0.55)


def residual(ax, start, end_x, top):
    """The skip path from `start` over the sublayers, down into the circle at end_x."""
    ax.add_patch(FancyArrowPatch(start, (end_x, top), connectionstyle="angle,angleA=90,"
                                 "angleB=0,rad=0.6", arrowstyle="-", color=MUTED,
                                 linewidth=1.1, linestyle=(0, (4, 2))))
    ax.add_patch(FancyArrowPatch((end_x, top), (end_x, start[1] + 0.55),
                                 connectionstyle="arc3", arrowstyle="-|>", mutation_scale=10,
                                 color=MUTED, linewidth=1.1, shrinkA=0, shrinkB=2))


def block_flow():
    """The pre-norm block: x -> LN1 -> attention -> + x = h -> LN2 -> FFN -> + h = out."""
    fig, ax = canvas(32, 11, unit=0.2)
    y = 4.2
    note(ax, 0.7, y, "x", size=NAME_SIZE)
    note(ax, 0.2, y - 1.3, "(N, L, E)", size=SHAPE_SIZE, color=MUTED, family="monospace",
         ha="left")
    ln1_in, ln1_out = box(ax, 4.9, y, 4.6, 1.6, "LayerNorm 1", INPUT)
    mha_in, mha_out = box(ax, 10.3, y, 4.3, 1.6, t("multi-head\nattention"), QUERY)
    add1_in, add1_out, _ = plus(ax, 14.1, y)
    ln2_in, ln2_out = box(ax, 18.3, y, 4.6, 1.6, "LayerNorm 2", INPUT)
    ffn_in, ffn_out = box(ax, 23.6, y, 4.3, 1.6, t("feed-forward\n(relu)"), WEIGHTS)
    add2_in, add2_out, _ = plus(ax, 27.4, y)
    arrow(ax, (1.2, y), ln1_in)
    arrow(ax, ln1_out, mha_in)
    arrow(ax, mha_out, add1_in)
    arrow(ax, add1_out, ln2_in, "h", size=NAME_SIZE, text_side="below")
    arrow(ax, ln2_out, ffn_in)
    arrow(ax, ffn_out, add2_in)
    arrow(ax, add2_out, (30.6, y))
    note(ax, 31.8, y, "out", size=NAME_SIZE, ha="right")
    note(ax, 31.8, y - 1.3, "(N, L, E)", size=SHAPE_SIZE, color=CONTEXT, family="monospace",
         ha="right")
    residual(ax, (2.0, y), 14.1, 8.6)
    residual(ax, (15.2, y), 27.4, 8.6)
    note(ax, 8.0, 9.3, t("residual: x + attention(LN1(x))"), size=SHAPE_SIZE, color=MUTED)
    note(ax, 21.3, 9.3, t("residual: h + FFN(LN2(h))"), size=SHAPE_SIZE, color=MUTED)
    note(ax, 10.3, 1.4, t("attn_mask: True = may not attend"), size=SHAPE_SIZE, color=MUTED)
    return fig


FIGURES = {
    "position_bands": position_bands,
    "block_flow": block_flow,
}
