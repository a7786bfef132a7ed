"""Does grading keep of a cell's output only text and bounded, well-formed PNG images, and say
in the course's language what it left out?

No kernel: outputs are built as a kernel sends them (nbformat.v4.new_output)."""

from __future__ import annotations

import base64
import io
import json
import struct
import zlib

import matplotlib
import numpy as np
import pytest
from nbformat.v4 import new_output

from autograder.course.shown_outputs import image_count, shown_outputs, well_formed_png
from autograder.grading.session import bounded
from autograder.i18n import language

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def plot_png(size=(2, 2), noise=False):
    """The PNG file of a small matplotlib figure (random pixels when `noise`: hard to
    compress, so large)."""
    figure, ax = plt.subplots(figsize=size)
    if noise:
        ax.imshow(np.random.default_rng(0).random((400, 400)))
    else:
        ax.plot([0, 1], [1, 0])
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100)
    plt.close(figure)
    return buffer.getvalue()


def b64(data):
    return base64.b64encode(data).decode("ascii")


def figure_output(data, kind="display_data", **extra):
    fields = {"execution_count": 3} if kind == "execute_result" else {}
    return new_output(kind, data={"text/plain": "<Figure size 200x200 with 1 Axes>",
                                  "image/png": b64(data) if isinstance(data, bytes) else data,
                                  **extra}, **fields)


def shown(outputs, image_kb=200, images=12, before=0):
    return shown_outputs(outputs, image_kb << 10, images, before)


def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(
        ">I", zlib.crc32(kind + body))


# -- what a PNG file is ---------------------------------------------------------------------


def test_a_plot_is_a_well_formed_png():
    """Is a PNG file matplotlib writes taken for one?"""
    assert well_formed_png(plot_png())


@pytest.mark.parametrize("damage", [
    lambda png: png[:-5],  # cut short
    lambda png: png + b"<script>alert(1)</script>",  # something after IEND
    lambda png: png[:20] + bytes([png[20] ^ 1]) + png[21:],  # a checksum no longer holds
    lambda png: b"GIF89a" + png[6:],  # another signature
    lambda png: png[:8] + chunk(b"tEXt", b"x") + png[8:],  # IHDR not first
    lambda png: b"<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>",
    lambda png: b"",
])
def test_anything_but_one_png_file_is_refused(damage):
    """Is a damaged, padded or foreign file refused as a PNG?"""
    assert not well_formed_png(damage(plot_png()))


# -- what a cell keeps ----------------------------------------------------------------------


def test_a_plot_is_kept_as_its_image_and_text():
    """Does a plot keep its PNG image (canonical base64) and its text, nothing else?"""
    data = plot_png()
    [kept] = shown([figure_output(data, **{"text/html": "<img src=x onerror=alert(1)>"})])
    assert kept["output_type"] == "display_data"
    assert set(kept["data"]) == {"image/png", "text/plain"}
    assert base64.b64decode(kept["data"]["image/png"]) == data
    assert kept["metadata"] == {}


def test_base64_split_over_lines_is_accepted():
    """Is an image whose base64 is split over lines (as notebooks store it) kept whole?"""
    text = b64(plot_png())
    split = "\n".join(text[i:i + 76] for i in range(0, len(text), 76))
    [kept] = shown([figure_output(split)])
    assert kept["data"]["image/png"] == text


@pytest.mark.parametrize("mime, payload", [
    ("text/html", "<script>alert(1)</script>"),
    ("application/javascript", "alert(1)"),
    ("image/svg+xml", "<svg onload='alert(1)'/>"),
    ("text/markdown", "<b>bold</b>"),
    ("text/latex", "$x$"),
    ("application/vnd.jupyter.widget-view+json", {"model_id": "x"}),
])
def test_markup_and_code_never_pass(mime, payload):
    """Is every kind of output but text and PNG left out (its plain text kept)?"""
    output = new_output("display_data", data={mime: payload, "text/plain": "<object>"},
                        metadata={mime: {"isolated": False}})
    [kept] = shown([output])
    assert kept["data"] == {"text/plain": "<object>"} and kept["metadata"] == {}


def test_an_output_with_nothing_to_show_is_dropped():
    """Does an output of markup only leave nothing behind?"""
    assert shown([new_output("display_data", data={"text/html": "<b>x</b>"})]) == []


def test_text_and_errors_are_kept():
    """Are printed text, a result's text and an error kept as they are?"""
    outputs = [new_output("stream", name="stdout", text="hello\n"),
               new_output("execute_result", data={"text/plain": "42"}, execution_count=2),
               new_output("error", ename="ValueError", evalue="bad", traceback=["ValueError: bad"])]
    assert shown(outputs) == outputs


def test_a_fake_png_is_replaced_by_a_note():
    """Is an 'image/png' that is not a PNG file replaced by a note, its text too?"""
    [kept] = shown([figure_output(b"<svg onload='alert(1)'/>")])
    assert kept["output_type"] == "stream" and "not a PNG file" in kept["text"]
    [kept] = shown([figure_output("not base64 at all <script>")])
    assert "not a PNG file" in kept["text"]


def test_an_oversized_plot_is_replaced_by_a_note():
    """Is a plot larger than the bound replaced by a note giving both sizes?"""
    data = plot_png(size=(4, 4), noise=True)
    assert len(data) > 10 << 10
    [kept] = shown([figure_output(data)], image_kb=10)
    assert kept["output_type"] == "stream"
    assert f"a plot of {len(data) >> 10} KB left out" in kept["text"]
    assert "at most 10 KB" in kept["text"]


def test_images_past_the_notebook_bound_are_replaced():
    """Once the notebook shows as many images as it may, is each later one a note?"""
    data = plot_png()
    kept = shown([figure_output(data), figure_output(data), figure_output(data)], images=3,
                 before=1)
    assert image_count(kept) == 2
    assert "at most 3 images" in kept[2]["text"]


def test_notes_speak_the_course_language():
    """Are the notes Chinese in a Chinese course?"""
    with language("zh"):
        [big] = shown([figure_output(plot_png(size=(4, 4), noise=True))], image_kb=10)
        [fake] = shown([figure_output(b"GIF89a")])
        [many] = shown([figure_output(plot_png())], images=1, before=1)
    assert "省略" in big["text"] and "10 KB" in big["text"]
    assert "PNG" in fake["text"] and "不是" in fake["text"]
    assert "最多显示 1 张图" in many["text"]


def test_images_do_not_count_against_the_text_bound():
    """Does a plot pass a cell's text bound that its base64 alone would exceed?"""
    output = figure_output(plot_png())
    kept, used = bounded([output], 1 << 10)
    assert kept == [output] and used < 1 << 10


def test_a_long_print_keeps_its_first_lines():
    """A cell printing far more than a cell may show: is its first part kept, in whole lines,
    up to the bound, then the note (it kept the note alone, none of what was printed)?"""
    lines = "".join(f"line {n} of the print\n" for n in range(100_000))
    output = new_output("stream", name="stdout", text=lines)
    kept, used = bounded([output], 4 << 10)
    head, note = kept
    assert head["text"].startswith("line 0 of the print\n") and head["text"].endswith("\n")
    assert lines.startswith(head["text"]) and len(head["text"]) > 3 << 10
    assert used <= 4 << 10 and "output cut by the grader" in note["text"]
    chinese = new_output("stream", name="stdout", text="中文输出\n" * 10_000)
    [head, _] = bounded([chinese], 1 << 10)[0]
    assert head["text"] and len(json.dumps(head)) <= 1 << 10  # escapes counted
