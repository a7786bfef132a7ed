"""The diagrams of 01_attention_by_hand, drawn at build time with the kit's toolkit
(autograder/build/figures.py): a markdown line `![...](figure:NAME)` of notebook.py
embeds FIGURES[NAME] as a PNG."""

from autograder.build.figures import (
    CONTEXT,
    INPUT,
    KEY,
    MUTED,
    QUERY,
    SHAPE_SIZE,
    VALUE,
    WEIGHTS,
    arrow,
    canvas,
    grid,
    note,
    tint,
    weight_shading,
)
from autograder.i18n import t


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
    note(ax, (scores.right + weights.left) / 2, scores.center_y - 0.45, t("each row"),
         size=SHAPE_SIZE, color=MUTED, va="top")
    context = grid(ax, 28.5, 3.5, 3, 3, CONTEXT, name="$Z = AV$", shape="(seq, d_v)")
    arrow(ax, (weights.center_x, weights.bottom - 1.5), (context.center_x - 0.5,
                                                         context.top + 1.4))
    arrow(ax, made["V"].east, context.west)
    return fig


FIGURES = {
    "qkv_flow": qkv_flow,
}
