"""The diagrams of 03_scaled_dot_product, drawn at build time with the kit's toolkit
(autograder/build/figures.py): a markdown line `![...](figure:NAME)` of notebook.py
embeds FIGURES[NAME] as a PNG."""

import math

import torch
from matplotlib.figure import Figure

from autograder.build.figures import (
    NOTE_SIZE,
    SHAPE_SIZE,
    WEIGHTS,
    tint,
)
from autograder.i18n import t


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
        axes[0][column].set_title(t("$d_k = {d_k}$: scores span {spread:.0f}", d_k=d_k,
                                    spread=spread), fontsize=NOTE_SIZE)
        axes[1][column].set_xlabel(t("key $j$"), fontsize=SHAPE_SIZE)
    axes[0][0].set_ylabel(r"softmax$(q \cdot k_j)$", fontsize=NOTE_SIZE)
    axes[1][0].set_ylabel(r"softmax$(q \cdot k_j / \sqrt{d_k})$", fontsize=NOTE_SIZE)
    fig.subplots_adjust(left=0.11, right=0.98, top=0.92, bottom=0.13, hspace=0.25, wspace=0.12)
    return fig


FIGURES = {
    "scaling_saturation": scaling_saturation,
}
