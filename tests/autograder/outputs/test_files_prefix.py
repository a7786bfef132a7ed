"""Does the kit's strip_files_prefix give exactly nbconvert's text, on every kind of line a
markdown link to `files/` can be written on, and is it the filter feedback pages use?"""

from __future__ import annotations

import random

import nbformat
from nbconvert.filters.strings import strip_files_prefix as nbconvert_strip_files_prefix

from autograder.outputs.files_prefix import strip_files_prefix
from autograder.outputs.safe_page import SafeHTMLExporter

PIECES = ["[", "]", "(", ")", "!", "/", "files/", "](files/", "](/files/", "](//files/",
          "src=", "href=", "'", '"', "x", " ", "\n", "\r"]


def test_the_same_text_as_nbconvert_s_on_random_lines():
    """On 20,000 texts made of the pieces of such links (seeded), is every result nbconvert's?"""
    draw = random.Random(20261130)
    for _ in range(20000):
        text = "".join(draw.choice(PIECES) for _ in range(draw.randrange(1, 40)))
        assert strip_files_prefix(text) == nbconvert_strip_files_prefix(text), repr(text)


def test_the_same_text_on_the_links_a_notebook_writes():
    """On the links nbconvert's filter exists for (an image, a link, with and without the
    leading slash, several on a line, one inside another's caption), is the result its own?"""
    for text in ["![plot](files/plot.png) and [data](/files/data.csv)",
                 '<img src="/files/a.png"> <a href=files/b.html>b</a>',
                 "[a [b] c](/files/x) [d](files/y (z))", "![](files/)", "[x](files/",
                 "!![x](files/y)", "[x](files/y)\n[z](/files/w)"]:
        assert strip_files_prefix(text) == nbconvert_strip_files_prefix(text), text


def test_a_line_of_a_hundred_thousand_brackets_is_left_as_it_is():
    """A student's line of 100,000 `[` before a marker with no `)` after it (nbconvert's
    filter took minutes on such lines): is it returned unchanged?"""
    line = "[" * 100_000 + "](files/" + "x" * 1000
    assert strip_files_prefix(line) == line


def test_feedback_pages_use_the_kit_s_filter():
    """Does the feedback exporter render a markdown cell's `files/` link through it?"""
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(
        "[the data](files/data.csv)")])
    exporter = SafeHTMLExporter()
    assert exporter.environment.filters["strip_files_prefix"] is strip_files_prefix
    assert 'href="data.csv"' in exporter.from_notebook_node(notebook)[0]
