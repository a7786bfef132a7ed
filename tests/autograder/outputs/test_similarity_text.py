"""Is the text fingerprinted blind to what a copier changes (names, comments, blank lines)
and not to what an independent author writes differently (the library calls)?"""

from __future__ import annotations

from autograder.outputs.similarity_text import bound_names, normalised

ORIGINAL = '''def scaled(scores, d_k):
    # divide first
    hidden = scores / math.sqrt(d_k)
    return torch.softmax(hidden, dim=-1)
'''
RENAMED = '''def scaled(s, size):


    tmp = s / math.sqrt(size)   # the copier's own comment
    return torch.softmax(tmp, dim=-1)
'''
OTHER_CALLS = '''def scaled(scores, d_k):
    hidden = scores * d_k ** -0.5
    return hidden.exp() / hidden.exp().sum(-1, keepdim=True)
'''


def text(code):
    return normalised(code, bound_names(code)).text


def test_renamed_and_recommented_code_reads_the_same():
    """Do other local names, comments and blank lines give the very same text?"""
    assert text(ORIGINAL) == text(RENAMED)


def test_library_calls_are_kept():
    """Are the library's names kept (torch.softmax, math.sqrt), so another way to compute the
    same differs?"""
    assert "torch.softmax" in text(ORIGINAL) and "math.sqrt" in text(ORIGINAL)
    assert text(OTHER_CALLS) != text(ORIGINAL)


def test_each_character_points_at_the_code():
    """Does a passage of the text map back to the code it stands for, and does every
    top-level statement start a new run (no fingerprint spans two functions)?"""
    code = ORIGINAL + "\n\n" + OTHER_CALLS
    found = normalised(code, bound_names(code))
    start = found.text.index("torch.softmax")
    span = found.code_span(start, start + len("torch.softmax"))
    assert code[span[0]:span[1]] == "torch.softmax"
    assert found.starts == (found.text.index("def", 1),)


def test_code_that_does_not_parse_is_still_read():
    """Is a cell with a syntax error still read, its assigned names folded?"""
    broken = "def f(x)\n    total = x + 1\n    return total\n"
    assert bound_names(broken) >= {"total"}
    assert "total" not in text(broken)


def test_code_nested_too_deep_for_the_parser_is_read_as_code_that_does_not_parse():
    """Is code Python's parser refuses as too deep (100,000 minus signs: a MemoryError;
    200,000 terms: a RecursionError) read from its tokens, its names folded, the rest of the
    cell's code as it would be?"""
    for deep in ("-" * 100_000 + "1", "+".join(["1"] * 200_000)):
        code = f"def f(x):\n    total = x + 1\n    return total\ny = {deep}\n"
        assert bound_names(code) >= {"f", "total", "y"}
        assert text(code).startswith("defV(x):V=x+1returnV")
