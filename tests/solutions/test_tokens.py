"""Tests for solutions.tokens: vocabulary, token ids and embeddings of documents 000-002."""

import string

import pytest
import torch
from attention_course.documents import (
    DOC000_EMBEDDING,
    DOC000_IDS,
    DOC000_SENTENCE,
    DOC000_VOCAB,
    DOC001_EMBEDDING,
    DOC001_IDS,
    DOC001_SENTENCE,
    DOC001_VOCAB,
    DOC002_EMBEDDING,
    DOC002_IDS,
    DOC002_SENTENCE,
    DOC002_VOCAB,
    DOC002_X_2,
)
from hypothesis import given
from hypothesis import strategies as st
from torch import nn
from torch.testing import assert_close

from autograder.checks.compare import TOLERANCE
from solutions import build_vocab, embed, encode
from tests.solutions.strategies import PROPERTIES

# --- documents 000, 001, 002 -----------------------------------------------------------------

DOCUMENTS = {
    "000": (DOC000_SENTENCE, DOC000_VOCAB, DOC000_IDS),
    "001": (DOC001_SENTENCE, DOC001_VOCAB, DOC001_IDS),
    "002": (DOC002_SENTENCE, DOC002_VOCAB, DOC002_IDS),
}


@pytest.mark.parametrize("doc", sorted(DOCUMENTS))
def test_doc_vocabulary(doc):
    """Does build_vocab give documents 000, 001 and 002 their printed vocabularies?"""
    sentence, vocab, _ = DOCUMENTS[doc]
    got = build_vocab(sentence)
    assert got == vocab
    assert list(got) == list(vocab)  # numbered in the printed order too


@pytest.mark.parametrize("doc", sorted(DOCUMENTS))
def test_doc_ids(doc):
    """Does encode give documents 000, 001 and 002 their printed token ids, as a LongTensor?"""
    sentence, vocab, ids = DOCUMENTS[doc]
    got = encode(sentence, vocab)
    assert got.dtype == torch.long
    assert torch.equal(got, ids)


def test_doc000_embedding():
    """Does embed(ids, 6, 16) give document 000's 6x16 embedding (seed 123)?"""
    assert_close(embed(DOC000_IDS, 6, 16), DOC000_EMBEDDING, **TOLERANCE)


def test_doc001_embedding():
    """Does embed(ids, 50_000, 3) give document 001's 6x3 embedding (seed 123)?"""
    assert_close(embed(DOC001_IDS, 50_000, 3), DOC001_EMBEDDING, **TOLERANCE)


def test_doc002_embedding_and_x_2():
    """Does embed(ids, 6, 16) give document 002's embedding, and its row 2 the printed x_2?"""
    x = embed(DOC002_IDS, 6, 16)
    assert_close(x, DOC002_EMBEDDING, **TOLERANCE)
    assert_close(x[1], DOC002_X_2, **TOLERANCE)


def test_doc002_embed_leaves_generator_for_the_weights(doc002):
    """After embed, do document 002's unseeded randn weights come out as the document draws?"""
    embed(DOC002_IDS, 6, 16)
    assert torch.equal(torch.randn(24, 16), doc002.W_query)
    assert torch.equal(torch.randn(24, 16), doc002.W_key)
    assert torch.equal(torch.randn(28, 16), doc002.W_value)


# --- properties ------------------------------------------------------------------------------

words = st.text(alphabet=string.ascii_letters, min_size=1, max_size=6)
punctuation = st.text(alphabet=string.punctuation, max_size=2)


@PROPERTIES
@given(st.lists(st.tuples(punctuation, words, punctuation), min_size=1, max_size=10))
def test_build_vocab_strips_punctuation_and_sorts_like_python(decorated):
    """Does build_vocab strip punctuation and number the words as sorted(str) orders them?"""
    sentence = " ".join(before + word + after for before, word, after in decorated)
    plain = [word for _, word, _ in decorated]
    expected = {word: i for i, word in enumerate(sorted(set(plain)))}
    got = build_vocab(sentence)
    assert got == expected
    assert list(got) == sorted(got)


def test_build_vocab_puts_capitals_first():
    """Does build_vocab sort capitals before lower case, as Python sorts str ('Zebra' < 'apple')?"""
    assert build_vocab("apple, Zebra; mango. Apple!") == {
        "Apple": 0,
        "Zebra": 1,
        "apple": 2,
        "mango": 3,
    }


def test_build_vocab_strips_unicode_punctuation_too():
    """Does build_vocab strip Unicode punctuation (，。！？、「」 … « ») as the contract says,
    while symbols and letters outside ASCII (€, ², ï) stay in their words?"""
    assert build_vocab("「你好」， 世界！ «naïve» €5… x²？") == {
        "naïve": 0, "x²": 1, "€5": 2, "世界": 3, "你好": 4}
    assert encode("你好、 世界。", build_vocab("世界 你好")).tolist() == [1, 0]


def test_build_vocab_splits_on_any_white_space():
    """Does build_vocab split on tabs, newlines and repeated spaces alike?"""
    assert build_vocab("b  a\tc\nb") == {"a": 0, "b": 1, "c": 2}


@PROPERTIES
@given(st.lists(st.tuples(punctuation, words, punctuation), min_size=1, max_size=10))
def test_encode_gives_each_words_id_in_order(decorated):
    """Does encode give the id of each word in order, punctuation ignored?"""
    sentence = " ".join(before + word + after for before, word, after in decorated)
    vocab = build_vocab(sentence)
    ids = encode(sentence, vocab)
    assert ids.dtype == torch.long
    assert ids.tolist() == [vocab[word] for _, word, _ in decorated]


@PROPERTIES
@given(known=st.lists(words, min_size=1, max_size=6), unknown=words)
def test_encode_unknown_word_raises_key_error_naming_it(known, unknown):
    """Does encode raise a KeyError whose message names the unknown word?"""
    vocab = {word: i for i, word in enumerate(sorted(set(known) - {unknown}))}
    sentence = " ".join([*known, unknown])
    with pytest.raises(KeyError) as raised:
        encode(sentence, vocab)
    assert unknown in str(raised.value)


@PROPERTIES
@given(
    seed=st.integers(0, 2**31 - 1),
    sizes=st.tuples(st.integers(2, 40), st.integers(1, 9)),
    data=st.data(),
)
def test_embed_is_a_freshly_seeded_embedding(seed, sizes, data):
    """Is embed(ids, V, d, seed) the rows of nn.Embedding(V, d) drawn under that seed, detached?"""
    vocab_size, dim = sizes
    ids = torch.tensor(
        data.draw(st.lists(st.integers(0, vocab_size - 1), min_size=1, max_size=8)),
        dtype=torch.long,
    )
    torch.manual_seed(seed)
    table = nn.Embedding(vocab_size, dim).weight.detach()
    torch.manual_seed(seed + 1)  # embed must seed itself, whatever the generator's state
    got = embed(ids, vocab_size, dim, seed=seed)
    assert not got.requires_grad
    assert torch.equal(got, table[ids])


def test_embed_default_seed_is_123():
    """Does embed seed with 123 when no seed is given?"""
    ids = torch.tensor([3, 1, 4, 1, 5])
    assert torch.equal(embed(ids, 9, 4), embed(ids, 9, 4, seed=123))
    assert not torch.equal(embed(ids, 9, 4), embed(ids, 9, 4, seed=124))
