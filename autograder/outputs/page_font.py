"""Every page the kit writes carries the glyphs its Chinese text needs: the report, the
similarity pages and the feedback pages.

A page is self-contained, often opened on another machine than the one that wrote it; a
browser without a CJK font draws each Chinese character of it as a box. So the page embeds the
kit's own font (kit_font.py), cut down to the characters it uses (a few hundred of Noto Sans
CJK SC's 65,000 glyphs: about 100 KB), as an @font-face its text is set in first, code
(`<pre>`, `<code>`) included; the font holds no Latin letter, so Latin text keeps the
browser's sans-serif, and code its monospace. An English page, or a kit without its font
package, embeds nothing.
"""

from __future__ import annotations

import base64
import io

from matplotlib import ft2font

from autograder.kit_font import KIT_FONT, PLAIN, kit_font_path

FAMILY = "Kit CJK"  # the embedded font's name inside the page
# Code and everything inside it (a highlighter's spans): a page's own style sheet (nbgrader's
# feedback) sets code in monospace with more specific selectors, hence !important.
CODE = "pre,code,kbd,samp,pre *,code *"


def face_index(path, family):
    """The index of the face named `family` in a font collection (0 for a single font)."""
    faces = ft2font.FT2Font(path).num_faces
    return next((i for i in range(faces)
                 if ft2font.FT2Font(path, face_index=i).family_name == family), 0)


def subset_woff(path, characters):
    """The kit's font cut down to `characters`, as WOFF bytes."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    font = TTFont(path, fontNumber=face_index(path, KIT_FONT))
    options = subset.Options()
    options.flavor = "woff"  # zlib: no other package needed (WOFF2 needs brotli)
    subsetter = subset.Subsetter(options)
    subsetter.populate(text="".join(sorted(characters)))
    subsetter.subset(font)
    buffer = io.BytesIO()
    font.save(buffer)
    return buffer.getvalue()


def font_css(text):
    """CSS that embeds the glyphs of `text` the default fonts may lack and sets the page in
    them first; empty when `text` needs none or the kit's font is not installed."""
    characters = {c for c in text if ord(c) > PLAIN}
    path = kit_font_path()
    if not characters or path is None:
        return ""
    encoded = base64.b64encode(subset_woff(path, characters)).decode("ascii")
    return (f"@font-face{{font-family:'{FAMILY}';"
            f"src:url(data:font/woff;base64,{encoded}) format('woff')}}"
            f"body{{font-family:'{FAMILY}',sans-serif}}"
            f"{CODE}{{font-family:'{FAMILY}',monospace,monospace!important}}")
