"""Do the course's figures (each assignment's figures.py, drawn with build/figures.py's
toolkit) draw cleanly, stay small, and come out byte for byte the same wherever they are
drawn (the committed notebooks embed them and a staleness check compares)?"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import matplotlib
import pytest
from matplotlib import font_manager
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import FancyBboxPatch
from matplotlib.text import Text

from autograder.build import figures
from autograder.build.figures import png
from autograder.i18n import language
from tests.course import FIGURES, ROOT

MAX_BYTES = 120_000
MAX_WIDTH_PIXELS = 700
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# Prints every figure's digest; run in fresh interpreters to compare processes.
DIGESTS = ("import hashlib, json\n"
           "from autograder.build.figures import png\n"
           "from tests.course import FIGURES\n"
           "print(json.dumps({n: hashlib.sha256(png(d)).hexdigest() for n, d in FIGURES.items()}))"
           "\n")


def pixel_size(data):
    """(width, height) from a PNG's IHDR chunk."""
    return struct.unpack(">II", data[16:24])


def start_drawing(env_changes):
    """A fresh interpreter that prints every figure's digest as JSON."""
    return subprocess.Popen([sys.executable, "-c", DIGESTS], cwd=ROOT,
                            env={**os.environ, **env_changes}, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def digests(process):
    out, err = process.communicate(timeout=300)
    assert process.returncode == 0, err
    return json.loads(out)


def config_folder(tmp_path):
    """A matplotlib config folder whose matplotlibrc changes fonts, colours and dpi; the
    font cache is copied so matplotlib does not rebuild it."""
    folder = tmp_path / "mplconfig"
    folder.mkdir()
    (folder / "matplotlibrc").write_text("font.size: 17\nfont.family: monospace\n"
                                         "axes.facecolor: yellow\nsavefig.dpi: 300\n")
    for cache in Path(matplotlib.get_cachedir()).glob("fontlist-*.json"):
        shutil.copy(cache, folder / cache.name)
    return folder


def test_the_figures_the_notebooks_name_exist():
    """Are the figure names other parts of the course refer to all drawn here?"""
    assert set(FIGURES) == {
        "qkv_flow", "embedding_lookup", "scaling_saturation", "self_attention_module",
        "bmm_stacking", "heads_split_merge", "row_column_layout", "cross_attention",
        "causal_mask", "position_bands", "block_flow",
        "online_softmax", "kv_cache",
    }


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("name", list(FIGURES))
def test_every_figure_is_a_small_png_that_fits_a_notebook(name):
    """Does each figure draw without a single warning, as a PNG under the size bound and no
    wider than a notebook's text column?"""
    data = png(FIGURES[name])
    assert data.startswith(PNG_SIGNATURE)
    assert len(data) <= MAX_BYTES, f"{name}: {len(data)} bytes"
    width, height = pixel_size(data)
    assert width <= MAX_WIDTH_PIXELS and height <= MAX_WIDTH_PIXELS, (name, width, height)


def test_two_calls_give_the_same_bytes():
    """Is drawing a figure twice in one process byte-identical (no state carried over)?"""
    assert png(FIGURES["causal_mask"]) == png(FIGURES["causal_mask"])


def test_every_process_gives_the_same_bytes(tmp_path):
    """Do two fresh interpreters, with different hash seeds and one with a matplotlibrc
    that changes fonts, colours and dpi, draw exactly the bytes this process draws?"""
    processes = [start_drawing({"PYTHONHASHSEED": "1"}),
                 start_drawing({"PYTHONHASHSEED": "2",
                                "MPLCONFIGDIR": str(config_folder(tmp_path))})]
    here = {name: hashlib.sha256(png(draw)).hexdigest() for name, draw in FIGURES.items()}
    first, second = (digests(process) for process in processes)
    assert first == second == here


def cache_without_matplotlibs_fonts(tmp_path):
    """A matplotlib config folder whose font cache lists the system's fonts only, as one
    written by another environment's matplotlib leaves it (the build once drew figures
    without italics from such a cache and called the committed notebooks stale)."""
    folder = tmp_path / "foreign-cache"
    folder.mkdir()
    own = Path(matplotlib.get_data_path()).resolve()
    manager = font_manager.FontManager()
    manager.ttflist = [f for f in manager.ttflist if own not in Path(f.fname).resolve().parents]
    manager.afmlist = [f for f in manager.afmlist if own not in Path(f.fname).resolve().parents]
    font_manager.json_dump(manager, folder / f"fontlist-v{manager._version}.json")
    return folder


def test_a_font_cache_without_matplotlibs_fonts_draws_the_same_bytes(tmp_path):
    """Does a fresh interpreter whose font cache lacks matplotlib's own fonts still draw
    exactly the bytes this process draws?"""
    drawing = start_drawing({"MPLCONFIGDIR": str(cache_without_matplotlibs_fonts(tmp_path))})
    here = {name: hashlib.sha256(png(draw)).hexdigest() for name, draw in FIGURES.items()}
    assert digests(drawing) == here


def test_a_missing_glyph_stops_the_drawing():
    """Does a label with a character the font lacks fail the build instead of drawing a
    box where the character should be?"""
    def with_missing_glyph():
        fig = Figure(figsize=(2, 1))
        fig.text(0.1, 0.5, "query \ue000")  # a private-use character: no font has it
        return fig

    with pytest.raises(UserWarning, match="missing from font"):
        png(with_missing_glyph)


# The words a Chinese figure may show in Latin letters: code (identifiers, functions, the
# values of a mask), and the example sentence's words (data).
CODE_WORDS = {"softmax", "relu", "exp", "sin", "cos", "torch", "bmm", "expand", "attention",
              "out", "True", "False", "FFN", "LayerNorm", "SelfAttention", "The", "the", "sun",
              "rises", "east", "seq", "dim"}


@pytest.mark.parametrize("name", list(FIGURES))
def test_chinese_labels_are_chinese(name):
    """Drawn for the Chinese course, does the figure show no English word (code, data and
    formulas aside), with every glyph found (png fails on a missing one) and no Chinese inside
    mathtext, whose fonts have none?"""
    with language("zh"):
        png(FIGURES[name])
        fig = FIGURES[name]()
    english = []
    for text in fig.findobj(Text):
        label = text.get_text()
        assert not ("$" in label and re.search(r"[\u3000-\u9fff\uff00-\uffef]", label)), label
        words = re.findall(r"[A-Za-z][A-Za-z_]{2,}", re.sub(r"\$[^$]*\$", " ", label))
        english += [word for word in words if word not in CODE_WORDS and "_" not in word]
    assert not english, f"{name}: {english}"


@pytest.mark.parametrize("name", list(FIGURES))
def test_english_labels_need_no_cjk_font(name):
    """Is every label of the English course's figure ASCII (words and mathtext), so that it
    draws the same on a machine with no CJK font?"""
    fig = FIGURES[name]()
    fig.savefig(io.BytesIO(), format="png", dpi=figures.DPI)  # tick labels exist once drawn
    unicode_minus = "\u2212"  # matplotlib's own minus sign on tick labels
    for text in fig.findobj(Text):
        label = text.get_text().replace(unicode_minus, "-")
        assert label.isascii(), f"{name}: {label!r}"



PADDING = 3  # pixels between a box's edge and the label inside it (its line is 1.2 pt)


def out_of_bounds(draw):
    """The labels of the figure `draw` makes that leave the figure, or that start inside a
    rounded box and come within PADDING of its edges, as the png draws them."""
    figures.own_fonts_first()
    with matplotlib.style.context("default"):
        if language_code() != "en":
            matplotlib.rcParams["font.family"] = figures.cjk_fallback()
        fig = draw()
        fig.set_dpi(figures.DPI)
        canvas = FigureCanvasAgg(fig)
        canvas.draw()
        renderer = canvas.get_renderer()
        page = fig.bbox
        boxes = [patch.get_window_extent(renderer) for ax in fig.axes for patch in ax.patches
                 if isinstance(patch, FancyBboxPatch)]  # labelled boxes, not grid cells
        wrong = []
        for text in fig.findobj(Text):
            if not text.get_visible() or not text.get_text().strip():
                continue
            extent = text.get_window_extent(renderer)
            if (extent.x0 < page.x0 - 1 or extent.y0 < page.y0 - 1 or extent.x1 > page.x1 + 1
                    or extent.y1 > page.y1 + 1):
                wrong.append(f"{text.get_text()!r} leaves the figure")
                continue
            x, y = text.get_transform().transform(text.get_position())
            for box in boxes:
                inside = box.x0 < x < box.x1 and box.y0 < y < box.y1
                if inside and box.width > 12 and (extent.x0 < box.x0 + PADDING
                                                  or extent.x1 > box.x1 - PADDING):
                    wrong.append(f"{text.get_text()!r} spills out of its box")
        return wrong


def language_code():
    from autograder.i18n import current

    return current()


@pytest.mark.parametrize("code", ["en", "zh"])
@pytest.mark.parametrize("name", list(FIGURES))
def test_every_label_stays_inside_the_figure_and_its_box(name, code):
    """Drawn for each course language, does every label stay inside the figure (no caption
    cut at an edge) and every label written in a box fit inside it?"""
    with language(code):
        assert out_of_bounds(FIGURES[name]) == []
