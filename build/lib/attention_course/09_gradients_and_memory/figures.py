"""The diagrams of 09_gradients_and_memory, drawn at build time with the kit's toolkit
(autograder/build/figures.py): a markdown line `![...](figure:NAME)` of notebook.py
embeds FIGURES[NAME] as a PNG."""

import math

import torch

from autograder.build.figures import (
    CONTEXT,
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
)
from autograder.i18n import t


def online_softmax():
    """One query's ten scores read in blocks of 4, 4 and 2: the running max, the rescaling
    factor and the running sum after each block."""
    scores = [0.3, 1.2, -0.5, 0.8, 2.1, 0.4, 2.6, -1.0, 1.5, 0.2]
    blocks = [(0, 4), (4, 8), (8, 10)]
    fig, ax = canvas(29, 12.5, unit=0.22)
    bottom = 8.5
    running_max, running_sum = -math.inf, 0.0
    left = 1.0
    for index, (start, stop) in enumerate(blocks):
        part = scores[start:stop]
        new_max = max(running_max, *part)
        rescale = math.exp(running_max - new_max) if running_max > -math.inf else 0.0
        running_sum = running_sum * rescale + sum(math.exp(s - new_max) for s in part)
        box = grid(ax, left, bottom, 1, len(part), WEIGHTS,
                   name=t("block {number}", number=index + 1),
                   cell=1.6, texts=[[number(s, 1) for s in part]], text_size=8,
                   cell_colors=[[tint(WEIGHTS, 0.75) if s == max(part) else tint(WEIGHTS, 0.25)
                                 for s in part]])
        middle = box.center_x
        arrow(ax, (middle, bottom - 0.2), (middle, bottom - 1.6))
        lines = [f"m = {number(new_max, 1)}",
                 t("rescale: 0 (first block)") if index == 0 else
                 t("rescale: exp({old} - {new})", old=number(running_max, 1),
                   new=number(new_max, 1)),
                 "" if index == 0 else f"= {number(rescale, 2)}",
                 f"l = {number(running_sum, 3)}"]
        note(ax, middle, bottom - 4.0, "\n".join(lines), size=SHAPE_SIZE, color=MUTED)
        running_max = new_max
        left = box.right + 3.2
    total = sum(math.exp(s - max(scores)) for s in scores)
    note(ax, 14.5, 1.2, t("after the last block: l = sum of exp(s - {largest}) over all ten "
                          "scores = {total}\nand the context is c / l",
                          largest=number(max(scores), 1), total=number(total, 3)),
         size=NOTE_SIZE)
    note(ax, 0.4, bottom + 0.8, t("scores"), size=SHAPE_SIZE, color=MUTED, rotation=90)
    return fig


def kv_cache():
    """The key and value caches at positions 0 to 3: one row appended per step, the newest
    query attending over the rows cached so far."""
    steps = 4
    fig, ax = canvas(29, 12.2, unit=0.22)
    generator = torch.Generator().manual_seed(9)
    bottom = 2.7  # room below for the two lines of the caption
    for step in range(steps):
        left = 1.0 + step * 7.2
        rows = step + 1
        top = bottom + steps  # the caches grow downwards from a common top
        fresh = tint(KEY, 0.85), tint(VALUE, 0.85)
        old = tint(KEY, 0.3), tint(VALUE, 0.3)
        weights = torch.softmax(torch.randn(rows, generator=generator), dim=0).tolist()
        keys = grid(ax, left + 1.6, top - rows, rows, 2, KEY, cell_colors=[
            [fresh[0] if r == step else old[0]] * 2 for r in range(rows)])
        grid(ax, left + 4.0, top - rows, rows, 2, VALUE, cell_colors=[
            [fresh[1] if r == step else old[1]] * 2 for r in range(rows)])
        query = grid(ax, left, top + 1.6, 1, 2, QUERY, cell=0.8)
        note(ax, left + 0.8, top + 3.0, f"t = {step}", size=NOTE_SIZE)
        note(ax, keys.center_x, top + 0.5, "K", size=SHAPE_SIZE, color=MUTED)
        note(ax, left + 5.0, top + 0.5, "V", size=SHAPE_SIZE, color=MUTED)
        arrow(ax, query.south, (keys.left, top - 0.5))
        for r, weight in enumerate(weights):
            note(ax, left + 0.8, top - r - 0.5, number(weight, 2), size=7, color=MUTED)
        note(ax, left + 3.6, top - rows - 0.8,
             t("{rows} row", rows=rows) if rows == 1 else t("{rows} rows", rows=rows),
             size=7, color=MUTED)
    note(ax, 14.5, 0.95, t("each step: project position t once, append its key and value,\n"
                          "attend its query over rows 0..t of the cache (no mask)"),
         size=NOTE_SIZE, color=CONTEXT)
    return fig


FIGURES = {
    "online_softmax": online_softmax,
    "kv_cache": kv_cache,
}
