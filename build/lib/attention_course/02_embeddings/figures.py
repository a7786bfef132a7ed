"""The diagrams of 02_embeddings, drawn at build time with the kit's toolkit
(autograder/build/figures.py): a markdown line `![...](figure:NAME)` of notebook.py
embeds FIGURES[NAME] as a PNG."""

from matplotlib.patches import FancyArrowPatch

from autograder.build.figures import (
    INK,
    INPUT,
    MUTED,
    NAME_SIZE,
    NOTE_SIZE,
    SHAPE_SIZE,
    arrow,
    canvas,
    grid,
    note,
    tint,
)
from autograder.i18n import t


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
    note(ax, 0.5, 12.3, t("vocabulary (sorted):"), size=NOTE_SIZE, ha="left")
    for index, word in enumerate(vocab):
        note(ax, 10 + index * 3.75, 12.3, f"{word} $\\to$ {index}", size=NOTE_SIZE,
             bbox={"boxstyle": "round,pad=0.25", "facecolor": row_colors[index],
                   "edgecolor": "none"})
    note(ax, 2, top + 0.7, t("words"), size=NOTE_SIZE, color=MUTED)
    note(ax, 6.2, top + 0.7, t("ids"), size=NOTE_SIZE, color=MUTED)
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
                 name=t("embedding table"), shape="(vocab_size, dim)")
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
    arrow(ax, (7.3, top - 4), (10.6, top - 4), t("row"), size=SHAPE_SIZE)
    return fig


FIGURES = {
    "embedding_lookup": embedding_lookup,
}
