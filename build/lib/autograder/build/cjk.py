"""Chinese prose is never hard-wrapped in a notebook: JupyterLab and the feedback pages show a
line break between two Chinese characters as a space ("几乎把全部注意力 都交给").

An authoring file may wrap its Chinese twins like its English cells; the build joins those
lines when it writes a markdown cell (`joined`), and then refuses a built notebook that still
holds such a break (`check_unwrapped`), wherever the text came from."""

from __future__ import annotations

import re

from autograder.build.authoring import AuthoringError

# Han characters, CJK symbols and punctuation (、。「」《》), full-width forms (，：；？！（）).
HAN = "\u3400-\u4dbf\u4e00-\u9fff"
FULL_WIDTH = "\u3000-\u303f\uff00-\uffef"
CJK = re.compile(f"[{HAN}{FULL_WIDTH}]")
PUNCTUATION = re.compile(f"[{FULL_WIDTH}]")
HAN_CHAR, LATIN_LETTER = re.compile(f"[{HAN}]"), re.compile("[A-Za-z]")
QUOTES = "“”‘’"  # Chinese quotes, but also English ones: they join only beside CJK
# A break between two CJK characters, the next line's indentation and emphasis marks included.
WRAPPED = re.compile(f"([{HAN}{FULL_WIDTH}])\\**\n[ \t]*(?=\\**[{HAN}{FULL_WIDTH}])")
BLOCKS = ("#", "|", ">", "- ", "* ", "+ ", "![", "$$", "<")
FENCE = re.compile(r"^\s*(```|~~~)")
CONTEXT = 12  # characters shown on each side of a break


def joined(text):
    """`text` with each soft line break of its paragraphs removed where it falls between two
    CJK characters (a quote mark beside one counts as one) or beside full-width punctuation
    ("，" "。"); a break between Chinese and
    Latin words stays (it shows as the space we put there anyway). Headings, table rows,
    list items, blank lines and fenced code keep their own lines. Punctuation joins a Latin
    word only in a text written in Chinese: an English cell quoting a Chinese title keeps
    its space after the title's "）"."""
    chinese = len(HAN_CHAR.findall(text)) > len(LATIN_LETTER.findall(text))
    lines = text.split("\n")
    out = [lines[0]] if lines else []
    fenced = bool(lines) and bool(FENCE.match(lines[0]))
    for line in lines[1:]:
        if FENCE.match(line):
            fenced = not fenced
            out.append(line)
        elif not fenced and continues(out[-1], line, chinese):
            out[-1] = out[-1].rstrip() + line.lstrip()
        else:
            out.append(line)
    return "\n".join(out)


def continues(previous, line, chinese=True):
    """Does `line` continue the paragraph of `previous` with no space between them? (Beside
    full-width punctuation, only in a text written in Chinese.)"""
    before, after = previous.rstrip(), line.lstrip()
    if not before or not after or before.lstrip().startswith(("#", "|")):
        return False
    if after.startswith(BLOCKS) or before.endswith("$$") or re.match(r"\d+[.)] ", after):
        return False  # a new block (a list item, a figure, displayed math), not a continuation
    last, first = before.rstrip("*")[-1:], after.lstrip("*")[:1]  # **bold** shows no marks
    if chinese and (PUNCTUATION.match(last) or PUNCTUATION.match(first)):
        return True
    chinese = [bool(CJK.match(last)), bool(CJK.match(first))]
    quoted = [last in QUOTES, first in QUOTES]
    return any(chinese) and all(c or q for c, q in zip(chinese, quoted, strict=True))


def check_unwrapped(cells, path):
    """Refuse markdown cells with a line break between two CJK characters; `path` is the
    authoring file the cells come from."""
    for index, cell in enumerate(cells):
        if cell.cell_type != "markdown":
            continue
        match = WRAPPED.search(cell.source)
        if match:
            start, end = match.start(), match.end()
            words = (cell.source[max(0, start - CONTEXT):start + 1] + "⏎"
                     + cell.source[end:end + CONTEXT]).replace("\n", " ")
            raise AuthoringError(
                f"{path}: markdown cell {index + 1} breaks a line between two Chinese "
                f"characters ({words!r}), which Jupyter shows as a space; write the "
                "paragraph on one line")
