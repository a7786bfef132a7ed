"""IPython's work on a cell's text, done once per text for all the kernels of a template.

Before a kernel runs a cell, ipykernel transforms its text (IPython's TransformerManager,
which tokenizes all of it to find magics) to ask whether it needs an event loop, then IPython
transforms it again to run it; and ipykernel names the cell's file by a murmur2 hash that it
computes in pure Python, a byte at a time. The course's cells are the same text in every
notebook (the helper cell alone is 27 KB), and each ran twice a notebook (once in the
student's kernel, once in the judging one): about 0.1 CPU s a notebook went to tokenizing
and hashing the same texts again.

Here, imported by the template (zygote.py) before it forks:
  - a transformed text is kept (at most MAX_CHARS of texts, the oldest go first), so a
    kernel transforms each text once, and the texts the template was given (`warm`: the
    course's cells, the grader's agent) not at all: a kernel inherits them with its memory;
  - the cell's file is named by a hash computed in C (blake2b, 32 bits as murmur2's).
The transformation is IPython's own, unchanged: a text is looked up only by a manager with
IPython's default transforms (a kernel that adds its own transforms gets them, every time).
Nothing of the grader's is kept here: the texts are the course's, as the notebooks hold them.
"""

import hashlib

import ipykernel.compiler
from IPython.core.inputtransformer2 import TransformerManager

MAX_CHARS = 8 << 20  # characters of transformed texts a process keeps
_transform = TransformerManager.transform_cell  # IPython's own
_kept = {}  # text -> transformed text, oldest first
_size = [0]


def _transforms(manager):
    return (*manager.cleanup_transforms, None, *manager.line_transforms, None,
            *manager.token_transformers)


DEFAULT = _transforms(TransformerManager())


def transform_cell(manager, cell):
    """IPython's TransformerManager.transform_cell, once per text."""
    if _transforms(manager) != DEFAULT:
        return _transform(manager, cell)
    done = _kept.get(cell)
    if done is None:
        done = _transform(manager, cell)  # a text IPython refuses raises, and is not kept
        _kept[cell] = done
        _size[0] += len(cell) + len(done)
        while _size[0] > MAX_CHARS and len(_kept) > 1:
            oldest = next(iter(_kept))
            _size[0] -= len(oldest) + len(_kept.pop(oldest))
    return done


def cell_hash(data, seed):
    """A 32-bit number naming a cell's file, as ipykernel's murmur2_x86 gives one, in C."""
    digest = hashlib.blake2b(data.encode("utf-8", "surrogatepass"), digest_size=4,
                             key=seed.to_bytes(4, "little")).digest()
    return int.from_bytes(digest, "little")


def install():
    TransformerManager.transform_cell = transform_cell
    ipykernel.compiler.murmur2_x86 = cell_hash


def warm(texts):
    """Transform `texts` now, in the template: every kernel forked after finds them done.
    The number of texts IPython could transform (the others are left to the kernels)."""
    manager, done = TransformerManager(), 0
    for text in texts:
        try:
            manager.transform_cell(text)
            done += 1
        except Exception:  # noqa: BLE001,S112 - a kernel raises it to the student, as IPython does
            continue
    return done
