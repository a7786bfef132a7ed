"""The diagrams of 06_scoring_functions, drawn at build time with the kit's toolkit
(autograder/build/figures.py): a markdown line `![...](figure:NAME)` of notebook.py
embeds FIGURES[NAME] as a PNG."""

from autograder.build.figures import (
    INK,
    INPUT,
    NAME_SIZE,
    NOTE_SIZE,
    QUERY,
    canvas,
    grid,
    note,
    shades,
    tint,
)
from autograder.i18n import t


def row_column_layout():
    """The same three inputs as rows of x and as columns of X."""
    n, d, d_out = 3, 4, 2
    fig, ax = canvas(32.5, 13.5)
    input_colors, query_colors = shades(INPUT, n), shades(QUERY, n)
    weight_color = tint(QUERY, 0.6)
    note(ax, 7.5, 12.8, t("rows: $x\\,W$"), size=NAME_SIZE)
    note(ax, 24.5, 12.8, t("columns: $W^\\top X$"), size=NAME_SIZE)
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
    note(ax, 16.25, 0.8, t("input $i$: row $i$ of $x$, column $i$ of $X$;   "
                           "$W^\\top X = (x\\,W)^\\top$"), size=NOTE_SIZE)
    return fig


FIGURES = {
    "row_column_layout": row_column_layout,
}
