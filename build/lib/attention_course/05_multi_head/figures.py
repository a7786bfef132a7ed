"""The diagrams of 05_multi_head, drawn at build time with the kit's toolkit
(autograder/build/figures.py): a markdown line `![...](figure:NAME)` of notebook.py
embeds FIGURES[NAME] as a PNG."""

from autograder.build.figures import (
    CONTEXT,
    INPUT,
    MUTED,
    NAME_SIZE,
    NOTE_SIZE,
    QUERY,
    SHAPE_SIZE,
    arrow,
    canvas,
    grid,
    note,
    shades,
    stack,
)
from autograder.i18n import t


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
    arrow(ax, (product.right + 0.3, middle), (queries.left - 0.3, middle), t("transpose"),
          size=SHAPE_SIZE, text_side="below")
    for box, name, shape in ((weights, "W_query", "(h, d_k, d_in)"),
                             (inputs, "x.T.expand(h, -1, -1)", "(h, d_in, seq)"),
                             (product, t(r"slice $i$: $W_i\,x^\top$"), "(h, d_k, seq)"),
                             (queries, t("queries"), "(h, seq, d_k)")):
        note(ax, box.center_x, title_y, name, size=NOTE_SIZE)
        note(ax, box.center_x, 1.2, shape, size=SHAPE_SIZE, color=MUTED, family="monospace")
    for box, text in ((weights, t("h matrices")), (inputs, t("views: no copy")),
                      (product, t("all heads, one call"))):
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
        arrow(ax, queries.east, piece.west, t("split") if head == 1 else None, size=SHAPE_SIZE)
        arrow(ax, piece.east, out.west, t("attention"), size=SHAPE_SIZE)
        arrow(ax, out.east, merged.west, t("concat") if head == 1 else None, size=SHAPE_SIZE)
    for left in (9.5, 16):
        note(ax, left + 1, 3.1, "(h, seq, d)", size=SHAPE_SIZE, color=MUTED,
             family="monospace")
    output = grid(ax, 30.5, middle, seq, h * d, CONTEXT, name=t("output"), shape="(seq, h*d)")
    arrow(ax, merged.east, output.west, "$\\times W_O$", size=NOTE_SIZE)
    note(ax, 18.5, 0.4, t(r"head $i$: softmax$(Q_i K_i^\top/\sqrt{{{dim}}})\,V_i$;  "
                          "$K$ and $V$ split the same way", dim="d"),
         size=SHAPE_SIZE + 1, va="bottom")
    return fig


FIGURES = {
    "bmm_stacking": bmm_stacking,
    "heads_split_merge": heads_split_merge,
}
