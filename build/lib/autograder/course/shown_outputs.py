"""What of a cell's output the autograded notebook keeps, so what its feedback page shows.

Outputs come from the student's kernel: data, never markup to trust. Kept are text (a stream,
an error, the plain-text form of a result) and PNG images (a plot), an image only when it is
base64 of one well-formed PNG file; HTML, JavaScript, SVG, LaTeX, widgets and every other
kind are left out, and so is each output's metadata. Images are bounded: each at most
`image_limit` bytes, at most `images_left` more in the notebook; an image past a bound, or
not a PNG file, is replaced by a short note in the course's language.
"""

from __future__ import annotations

import base64
import binascii
import struct
import zlib

import nbformat

from autograder.i18n import t

PNG = "image/png"
TEXT = "text/plain"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
STREAMS = ("stdout", "stderr")
MAX_IMAGE_KB = 200  # one image, unless the course says otherwise (GradeInSandbox.max_image_kb)
MAX_IMAGES = 12  # images of one notebook (GradeInSandbox.max_images)


def well_formed_png(data: bytes) -> bool:
    """Is `data` one PNG file: the signature, then chunks whose lengths and checksums hold,
    IHDR first and IEND last, nothing after it?"""
    if not data.startswith(PNG_SIGNATURE):
        return False
    at, first = len(PNG_SIGNATURE), True
    while at + 12 <= len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        end = at + 12 + length
        if end > len(data):
            return False
        (checksum,) = struct.unpack(">I", data[end - 4:end])
        if zlib.crc32(data[at + 4:end - 4]) != checksum or (first and kind != b"IHDR"):
            return False
        if kind == b"IEND":
            return end == len(data)
        at, first = end, False
    return False


def text_of(value):
    """A text field of an output as one string (nbformat may keep it as a list of lines);
    None when it is not text."""
    if isinstance(value, list) and all(isinstance(line, str) for line in value):
        return "".join(value)
    return value if isinstance(value, str) else None


def png_image(value, limit):
    """(the image as canonical base64, None) when `value` is base64 of a PNG file of at most
    `limit` bytes, else (None, the note that replaces it)."""
    encoded = "".join((text_of(value) or "").split())
    if len(encoded) > (limit + 2) // 3 * 4:
        return None, t("[a plot of {size} KB left out: an image may have at most {limit} KB]",
                       size=len(encoded) * 3 // 4 >> 10, limit=limit >> 10)
    try:
        data = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        data = b""
    if not well_formed_png(data):
        return None, t("[an image left out: it is not a PNG file]")
    return base64.b64encode(data).decode("ascii"), None


def new_output(output_type, **fields):
    """An output as nbformat.v4.new_output makes it, without its check against the schema
    (a millisecond each, a dozen a notebook): every output made here is well formed by
    construction, its fields of the types the schema wants, and nbformat checks the whole
    notebook when it is written."""
    defaults = {"stream": {"name": "stdout", "text": ""},
                "display_data": {"metadata": {}, "data": {}},
                "execute_result": {"metadata": {}, "data": {}, "execution_count": None},
                "error": {"ename": "Error", "evalue": "", "traceback": []}}[output_type]
    return nbformat.from_dict({"output_type": output_type, **defaults, **fields})


def note(text):
    return new_output("stream", name="stdout", text=text + "\n")


def shown_result(output, image_limit, image_allowed, max_images):
    """The display_data or execute_result output as kept (None when nothing of it is). A plot
    replaced by a note loses its text too (`<Figure size 350x300 with 2 Axes>`)."""
    data = output.get("data") if isinstance(output.get("data"), dict) else {}
    kept = {}
    if PNG in data:
        if not image_allowed:
            return note(t("[a plot left out: a notebook may show at most {count} images]",
                          count=max_images))
        image, why = png_image(data[PNG], image_limit)
        if why:
            return note(why)
        kept[PNG] = image
    text = text_of(data.get(TEXT))
    if text is not None:
        kept[TEXT] = text
    if not kept:
        return None
    if output.get("output_type") == "execute_result":
        count = output.get("execution_count")
        return new_output("execute_result", data=kept,
                          execution_count=count if type(count) is int else None)
    return new_output("display_data", data=kept)


def shown_outputs(outputs, image_limit, max_images, images_before=0):
    """The outputs as the page may show them: text, and PNG images of at most `image_limit`
    bytes while the notebook shows fewer than `max_images` (`images_before` already)."""
    shown = []
    for output in outputs:
        kind = output.get("output_type")
        if kind == "stream":
            name = output.get("name") if output.get("name") in STREAMS else "stdout"
            shown.append(new_output("stream", name=name, text=text_of(output.get("text")) or ""))
        elif kind == "error":
            trace = output.get("traceback")
            shown.append(new_output(
                "error", ename=text_of(output.get("ename")) or "Error",
                evalue=text_of(output.get("evalue")) or "",
                traceback=[line for line in trace if isinstance(line, str)]
                if isinstance(trace, list) else []))
        elif kind in ("display_data", "execute_result"):
            allowed = images_before + image_count(shown) < max_images
            result = shown_result(output, image_limit, allowed, max_images)
            if result is not None:
                shown.append(result)
    return shown


def image_count(outputs):
    return sum(PNG in output.get("data", {}) for output in outputs)


def without_images(output):
    """An output with its images taken out, to measure its text (images count apart)."""
    data = output.get("data")
    if not isinstance(data, dict) or PNG not in data:
        return output
    return {**output, "data": {k: v for k, v in data.items() if k != PNG}}
