"""The documents' worked examples as fixtures: their inputs and weights, drawn as they draw them
by the recipes of ``assignments/recipes.py`` (the documents' own torch calls, not the
functions under test, so a test of one step does not depend on the others). Weights of
documents 000 and 002 are (d_out, d) as printed; the row-convention functions take ``W.T``.

Every tensor here is tiny, so the tests run torch on one thread: a second one only adds
hand-offs, which cost many times the work itself once other jobs share the cores.
"""

import pytest
import torch
from attention_course import recipes


@pytest.fixture(scope="package", autouse=True)
def one_torch_thread():
    """Run this package's tests with torch on one thread, and restore the count afterwards."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


@pytest.fixture
def doc000():
    """Document 000: Embedding(6, 16) under seed 123, then seed 123 and rand weights."""
    return recipes.document_000()


@pytest.fixture
def doc001():
    """Document 001: Embedding(50_000, 3) under seed 123, then seed 123 and rand(d, d_out)."""
    return recipes.document_001()


@pytest.fixture
def doc002():
    """Document 002: Embedding(6, 16) under seed 123, then randn weights with no reseed."""
    return recipes.document_002()


@pytest.fixture
def doc003():
    """Document 003: seed 0, data = randn(4, 4), then the loop module's three randn weights."""
    return recipes.document_003()
