"""The diagrams of 04_self_attention, drawn at build time with the kit's toolkit
(autograder/build/figures.py): a markdown line `![...](figure:NAME)` of notebook.py
embeds FIGURES[NAME] as a PNG."""

from matplotlib.patches import FancyBboxPatch

from autograder.build.figures import (
    CONTEXT,
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
    tint,
)
from autograder.i18n import t


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
    ax.add_patch(FancyBboxPatch((5.0, bottom - 1.9), 16.3, 8.1, boxstyle="round,pad=0.2",
                                fill=False, edgecolor=MUTED, linewidth=0.8,
                                linestyle=(0, (3, 2))))
    arrow(ax, x.east, (4.8, x.center_y))
    weights = grid(ax, 23.5, bottom, 6, 6, WEIGHTS, name=t("weights"), shape="(seq, seq)")
    note(ax, weights.center_x, weights.top + 2.1, r"softmax$(QK^\top/\sqrt{d_k})$",
         size=SHAPE_SIZE + 1)
    arrow(ax, (21.5, weights.center_y), weights.west)
    context = grid(ax, 31.5, bottom, 6, 4, CONTEXT, name=t("context"), shape="(seq, d_v)")
    arrow(ax, weights.east, context.west, "@ V", size=SHAPE_SIZE)
    return fig


FIGURES = {
    "self_attention_module": self_attention_module,
}
