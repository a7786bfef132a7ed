"""Is a page's font cut once for a set of characters and read back after, by this process
and the next, so that a class's feedback pages do not each pay the cut?"""

from __future__ import annotations

import base64
import io
import os
import re

import pytest
from fontTools.ttLib import TTFont

from autograder.outputs import page_font
from autograder.plumbing.kit_font import kit_font_path

TITLE = "Attention Is All You Need（注意力就是你所需要的一切）"


def embedded(css):
    """The characters of the font `css` embeds, which must be WOFF, as its CSS says."""
    found = re.search(r"base64,([A-Za-z0-9+/=]+)\) format\('woff'\)", css)
    data = base64.b64decode(found.group(1))
    assert data.startswith(b"wOFF")  # compressed, not an OpenType file under WOFF's name
    font = TTFont(io.BytesIO(data))
    return {chr(code) for code in font.getBestCmap()}


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    """An empty cache folder, and nothing kept in this process."""
    if kit_font_path() is None:
        pytest.skip("the kit's font package is not installed")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    page_font.KEPT.clear()
    yield tmp_path / "attention-kit" / "fonts"
    page_font.KEPT.clear()


def test_a_set_is_cut_once_and_read_back(fresh_cache, monkeypatch):
    """Cut once, is the subset kept in the cache folder and read back (the cut not run
    again) by a process that kept nothing, with every character the page needs?"""
    first = page_font.font_css(TITLE)
    assert len(list(fresh_cache.glob("*.woff"))) == 1
    needed = {c for c in TITLE if ord(c) > page_font.PLAIN}
    assert needed <= embedded(first)

    def no_cut(*args):
        raise AssertionError("the font was cut again")

    page_font.KEPT.clear()  # as a new process
    monkeypatch.setattr(page_font, "subset_woff", no_cut)
    assert page_font.font_css(TITLE) == first


def test_another_set_is_cut_for_itself_and_a_broken_file_is_cut_again(fresh_cache):
    """Does a page with other characters get a subset of its own, and a kept file that is no
    font (something else wrote it) a fresh cut?"""
    first = page_font.font_css(TITLE)
    other = page_font.font_css("缩放点积注意力")
    assert other != first and len(list(fresh_cache.glob("*.woff"))) == 2
    for kept in fresh_cache.glob("*.woff"):
        kept.write_bytes(b"garbage")
    page_font.KEPT.clear()
    assert embedded(page_font.font_css(TITLE)) == embedded(first)
    sizes = sorted(kept.stat().st_size for kept in fresh_cache.glob("*.woff"))
    assert sizes[0] == len(b"garbage") and sizes[1] > 100  # the title's kept again; the other
    #                                                       set's untouched


def test_no_cache_folder_still_gives_the_font(tmp_path, monkeypatch):
    """Where the cache folder cannot be made (a home that is not writable), is the font
    still embedded, cut in the process?"""
    if kit_font_path() is None:
        pytest.skip("the kit's font package is not installed")
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    page_font.KEPT.clear()
    try:
        assert {"注", "意"} <= embedded(page_font.font_css(TITLE))
    finally:
        page_font.KEPT.clear()


def test_a_kept_font_is_embedded_without_matplotlib(fresh_cache, tmp_path):
    """Once a set is cut, does a new process embed it without importing matplotlib (about
    0.3 s of every command that writes pages, which draw nothing)?"""
    import os
    import subprocess
    import sys

    first = page_font.font_css(TITLE)
    script = ("import sys\n"
              "from autograder.outputs import page_font\n"
              f"print(page_font.font_css({TITLE!r}) == {first!r}, 'matplotlib' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env={**os.environ, "XDG_CACHE_HOME": str(tmp_path)}, timeout=120,
                          check=True)
    assert done.stdout.split() == ["True", "False"], done.stderr[-2000:]


def test_the_cache_folder_keeps_the_sets_used_last_within_its_bound(fresh_cache, monkeypatch):
    """Past CACHE_BYTES, are the fonts least recently used removed (a set read back counts as
    a use), the one just cut and everything else in the folder kept?"""
    page_font.font_css("注意力")
    page_font.font_css("缩放点积")
    older, newer = sorted(fresh_cache.glob("*.woff"), key=lambda kept: kept.stat().st_mtime_ns)
    os.utime(older, ns=(10**18, 10**18))  # cut first, long ago
    os.utime(newer, ns=(15 * 10**17, 15 * 10**17))  # cut after, long ago too
    page_font.KEPT.clear()  # as a new process, which reads the first set back
    page_font.font_css("注意力")
    other = fresh_cache / "notes.txt"
    other.write_text("not a font of the kit's")
    cut = page_font.subset_woff(kit_font_path(), set("多头注意力机制"))
    monkeypatch.setattr(page_font, "CACHE_BYTES", older.stat().st_size + len(cut))  # not 3
    third = page_font.font_css("多头注意力机制")
    left = {kept.name for kept in fresh_cache.glob("*.woff")}
    assert len(left) == 2 and older.name in left and newer.name not in left
    assert other.read_text() == "not a font of the kit's"
    assert sum(kept.stat().st_size for kept in fresh_cache.glob("*.woff")) <= \
        page_font.CACHE_BYTES
    page_font.KEPT.clear()
    assert page_font.font_css("多头注意力机制") == third  # the new set read back, not lost


def test_a_process_keeps_the_fonts_used_last_within_its_bound():
    """Does a process keep at most MEMORY_CHARACTERS of fonts' text, dropping the least
    recently used, and not keep one longer than that at all?"""
    recent = page_font.Recent(10)
    recent.put("a", "xxxx")
    recent.put("b", "yyyy")
    assert recent.get("a") == "xxxx"  # "a" used after "b"
    recent.put("c", "zzzz")
    assert (recent.get("a"), recent.get("b"), recent.get("c")) == ("xxxx", None, "zzzz")
    assert recent.size == 8
    recent.put("d", "w" * 11)
    assert recent.get("d") is None and recent.size == 8
