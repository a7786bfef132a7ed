"""Every page the kit writes carries the glyphs its Chinese text needs: the report, the
similarity pages and the feedback pages.

A page is self-contained, often opened on another machine than the one that wrote it; a
browser without a CJK font draws each Chinese character of it as a box. So the page embeds the kit's
own font (plumbing/kit_font.py), cut down to the characters it uses (a few hundred of Noto Sans CJK
SC's 65,000 glyphs: about 100 KB), as an @font-face its text is set in first, code
(`<pre>`, `<code>`) included; the font holds no Latin letter, so Latin text keeps the
browser's sans-serif, and code its monospace. An English page, or a kit without its font
package, embeds nothing.

Cutting the subset reads the whole 19 MB collection: 0.4-0.8 s a page. Each set of characters
is cut once and kept (`kept_subset`): in this process, and in the user's cache folder
(~/.cache/attention-kit/fonts, keyed by the font file and the characters), so that the
pages of a class, whose characters are mostly the notebook's, a regrade's pages and the next
process's, read it back.

Both are bounded, the least recently used set going first: a set is some 5-200 KB, but a
page of 140 KB of Chinese and Korean needed a 14 MB font, and a student's own characters make
a set of their own, so a term of pages, or a served course fed such notebooks, would otherwise
fill the home folder, or the memory of `serve`, without end. The folder keeps at most
CACHE_BYTES of fonts (each read back counts as a use); the process MEMORY_CHARACTERS of their
text. A set dropped is cut again when a page needs it.
"""

from __future__ import annotations

import base64
import hashlib
import html
import io
import os
import re
import threading
from collections import OrderedDict
from pathlib import Path

from autograder.course.directory import write_atomically
from autograder.plumbing.kit_font import KIT_FONT, PLAIN, kit_font_file

BEYOND_PLAIN = re.compile(f"[^\\x00-\\u{PLAIN:04x}]")  # what the default fonts may lack
FAMILY = "Kit CJK"  # the embedded font's name inside the page
# Code and everything inside it (a highlighter's spans): a page's own style sheet (nbgrader's
# feedback) sets code in monospace with more specific selectors, hence !important.
CODE = "pre,code,kbd,samp,pre *,code *"
CACHE_BYTES = 256 * 2**20  # the cache folder's fonts, at most (some 2,000 sets of a class)
MEMORY_CHARACTERS = 64 * 2**20  # the base64 text of the fonts a process keeps, at most
SUFFIX = ".woff"  # a kept font in the cache folder; nothing else there is the kit's to remove
WOFF = "woff"  # the format of a cut, named in its key: a cut of another format is not read
SIGNATURE = b"wOFF"  # how a WOFF file begins: a kept file that does not is cut again


def face_index(path, family):
    """The index of the face named `family` in a font collection (0 for a single font)."""
    from matplotlib import ft2font

    faces = ft2font.FT2Font(path).num_faces
    return next((i for i in range(faces)
                 if ft2font.FT2Font(path, face_index=i).family_name == family), 0)


def subset_woff(path, characters):
    """The kit's font cut down to `characters`, as WOFF bytes."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    font = TTFont(path, fontNumber=face_index(path, KIT_FONT))
    subsetter = subset.Subsetter(subset.Options())
    subsetter.populate(text="".join(sorted(characters)))
    subsetter.subset(font)
    font.flavor = WOFF  # zlib: no other package needed (WOFF2 needs brotli); set on the font
    buffer = io.BytesIO()  # itself: the subsetter's option of that name is read only by its
    font.save(buffer)  # own save_font, and a page carried the font uncompressed
    return buffer.getvalue()


def font_css(text):
    """CSS that embeds the glyphs of `text` the default fonts may lack and sets the page in
    them first; empty when `text` needs none or the kit's font is not installed. `text` is
    HTML: a character written as an entity (nbconvert writes a heading's so, `&#24590;`) is
    one the page shows."""
    characters = set(BEYOND_PLAIN.findall(html.unescape(text)))
    path = kit_font_file()
    if not characters or path is None:
        return ""
    from fontTools.ttLib import TTLibError

    try:
        encoded = kept_subset(path, "".join(sorted(characters)))
    except (OSError, TTLibError):  # the package's file is not a font: nothing embedded
        return ""
    return (f"@font-face{{font-family:'{FAMILY}';"
            f"src:url(data:font/woff;base64,{encoded}) format('woff')}}"
            f"body{{font-family:'{FAMILY}',sans-serif}}"
            f"{CODE}{{font-family:'{FAMILY}',monospace,monospace!important}}")


class Recent:
    """Values kept by key in this process, the least recently used dropped once their
    lengths pass `limit` (a value longer than that is not kept)."""

    def __init__(self, limit):
        self.limit, self.size = limit, 0
        self.values: OrderedDict = OrderedDict()
        self.lock = threading.Lock()  # serve writes pages from more than one thread

    def get(self, key):
        with self.lock:
            value = self.values.get(key)
            if value is not None:
                self.values.move_to_end(key)
            return value

    def put(self, key, value):
        with self.lock:
            if key in self.values or len(value) > self.limit:
                return
            self.values[key] = value
            self.size += len(value)
            while self.size > self.limit:
                _, dropped = self.values.popitem(last=False)
                self.size -= len(dropped)

    def clear(self):
        with self.lock:
            self.values.clear()
            self.size = 0


KEPT = Recent(MEMORY_CHARACTERS)  # (font file, characters) -> base64 of the cut


def kept_subset(path, characters):
    """subset_woff(path, characters) as base64: read back where it was cut before (in this
    process, else in the cache folder), else cut and kept there."""
    encoded = KEPT.get((path, characters))
    if encoded is None:
        encoded = base64.b64encode(kept_file(path, characters)).decode("ascii")
        KEPT.put((path, characters), encoded)
    return encoded


def kept_file(path, characters):
    """The cut's bytes from the cache folder (its use marked), else cut now and kept there."""
    info = os.stat(path)
    key = hashlib.sha256(f"{WOFF}\0{path}\0{info.st_size}\0{info.st_mtime_ns}\0{characters}"
                         .encode()).hexdigest()[:40]
    folder = cache_folder()
    kept = folder / f"{key}{SUFFIX}" if folder else None
    try:
        data = kept.read_bytes() if kept else None
    except OSError:
        data = None
    if data and data.startswith(SIGNATURE):  # else written short, or by something else
        used(kept)
        return data
    data = subset_woff(path, set(characters))
    if kept:
        keep(kept, data)
        prune(folder, CACHE_BYTES)
    return data


def used(path):
    """Mark a kept font as just used (its modification time): pruning drops it last."""
    try:
        os.utime(path)
    except OSError:
        pass


def prune(folder, limit):
    """Remove the kept fonts least recently used until those left hold at most `limit` bytes.
    Only the kit's fonts (*.woff) are counted or removed; one another process removed first
    is passed over."""
    fonts = []
    with os.scandir(folder) as entries:
        for entry in entries:
            if not entry.name.endswith(SUFFIX) or entry.name.startswith("."):
                continue
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            fonts.append((info.st_mtime_ns, info.st_size, entry.path))
    total = sum(size for _, size, _ in fonts)
    for _, size, font in sorted(fonts):
        if total <= limit:
            break
        try:
            os.unlink(font)
        except FileNotFoundError:
            pass
        except OSError:
            continue
        total -= size


def cache_folder():
    """The user's folder of cut fonts (mode 0700), None where it cannot be made (a home that
    is not writable: the font is then cut for each process)."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    folder = base / "attention-kit" / "fonts"
    try:
        folder.mkdir(parents=True, mode=0o700, exist_ok=True)
    except OSError:
        return None
    return folder if os.access(folder, os.W_OK) else None


def keep(path, data):
    """Write `data` at `path` whole or not at all (a reader never sees half a font); a cache
    that cannot be written is passed over (the font is cut again next time)."""
    try:
        write_atomically(path, data)
    except OSError:
        pass
