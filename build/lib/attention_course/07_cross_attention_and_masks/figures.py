"""The diagrams of 07_cross_attention_and_masks, drawn at build time with the kit's toolkit
(autograder/build/figures.py): a markdown line `![...](figure:NAME)` of notebook.py
embeds FIGURES[NAME] as a PNG."""

import torch
from matplotlib.patches import FancyBboxPatch, Patch

from autograder.build.figures import (
    CONTEXT,
    INK,
    INPUT,
    KEY,
    MUTED,
    NOTE_SIZE,
    QUERY,
    SHAPE_SIZE,
    VALUE,
    WEIGHTS,
    arrow,
    canvas,
    grid,
    note,
    number,
    tint,
    weight_shading,
)
from autograder.i18n import t


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
    scores_box = grid(ax, 14, top_row - 0.9, n_query, n_context, WEIGHTS, name=t("weights"),
                      shape="(3, 5)", cell=1.3, cell_colors=weight_shading(weights.tolist()),
                      texts=[[f"{w:.2f}" for w in row] for row in weights.tolist()],
                      text_size=7)
    arrow(ax, queries.east, scores_box.west)
    arrow(ax, keys.north, (scores_box.left + 1.3, scores_box.bottom - 1.6))
    output = grid(ax, 26, top_row, n_query, 3, CONTEXT, name=t("output"), shape="(3, d_v)")
    arrow(ax, scores_box.east, output.west)
    arrow(ax, values.north, (output.center_x - 0.5, output.bottom - 1.6))
    note(ax, 24.5, 5.5, t("one row per query;\nrows of weights sum to 1"), size=NOTE_SIZE,
         color=MUTED)
    return fig


def causal_example(n=5, seed=11):
    """The figure's mask (True: the future), scores and weights. The scores are rounded to
    the one decimal the figure prints before the softmax, so the weights it prints are the
    softmax of the scores it prints (a reader who checks a row gets the same numbers)."""
    generator = torch.Generator().manual_seed(seed)
    scores = torch.round(torch.randn(n, n, generator=generator), decimals=1)  # (n, n)
    masked = torch.ones(n, n, dtype=torch.bool).triu(diagonal=1)  # (n, n), True: the future
    weights = torch.softmax(scores.masked_fill(masked, float("-inf")), dim=-1)  # (n, n)
    return masked, scores, weights


def causal_mask():
    """The causal mask, the masked scores and the weights that result."""
    masked, scores, weights = causal_example()
    n = len(scores)
    fig, ax = canvas(26, 10.5, unit=0.25)
    allowed, hidden = tint(WEIGHTS, 0.25), "#555555"
    bottom = 2.5

    def table(fill):
        return [[fill(r, c) for c in range(n)] for r in range(n)]

    grid(ax, 1, bottom, n, n, INK, name=t("mask"),
         cell_colors=table(lambda r, c: hidden if masked[r, c] else allowed))
    grid(ax, 10.5, bottom, n, n, WEIGHTS, name=t("scores"),
         cell_colors=table(lambda r, c: "#e6e6e6" if masked[r, c] else tint(WEIGHTS, 0.3)),
         texts=table(lambda r, c: r"$-\infty$" if masked[r, c]
                     else number(scores[r, c].item(), 1)))
    grid(ax, 20, bottom, n, n, WEIGHTS, name=t("weights"),
         cell_colors=weight_shading(weights.tolist()),
         texts=table(lambda r, c: "0" if masked[r, c] else number(weights[r, c].item(), 2)))
    arrow(ax, (6.5, bottom + 2.5), (10, bottom + 2.5), t("fill $-\\infty$"), size=SHAPE_SIZE)
    arrow(ax, (16, bottom + 2.5), (19.5, bottom + 2.5), "softmax", size=SHAPE_SIZE)
    note(ax, 0.5, bottom + 2.5, t("query"), size=SHAPE_SIZE, color=MUTED, rotation=90)
    note(ax, 3.5, bottom - 0.5, t("key"), size=SHAPE_SIZE, color=MUTED)
    note(ax, 22.5, bottom - 0.5, t("each row sums to 1"), size=SHAPE_SIZE, color=MUTED)
    ax.legend(handles=[Patch(facecolor=allowed, label=t("allowed (False)")),
                       Patch(facecolor=hidden, label=t("masked (True)"))],
              loc="lower left", bbox_to_anchor=(0.02, 0.0), ncol=2, fontsize=SHAPE_SIZE,
              frameon=False)
    return fig


FIGURES = {
    "cross_attention": cross_attention,
    "causal_mask": causal_mask,
}
