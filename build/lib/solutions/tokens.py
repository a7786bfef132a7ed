"""From a sentence to vectors (documents 000, 001, 002): vocabulary, token ids, embedding."""

import string
import unicodedata

import torch
from torch import nn


def split_words(sentence):
    """The sentence's words: punctuation removed, split on white space.

    Punctuation is every character of string.punctuation and every character Unicode counts
    as punctuation (its category starts with P), so ，。！？、「」 and … go too.
    """
    kept = "".join(ch for ch in sentence if ch not in string.punctuation
                   and not unicodedata.category(ch).startswith("P"))
    return kept.split()


def build_vocab(sentence):
    """Number the sentence's distinct words in Python's sort order, from 0.

    Capitals sort before lower case ('Life' < 'dessert'), as ``sorted`` does.
    Returns a dict word -> id.
    """
    return {word: i for i, word in enumerate(sorted(set(split_words(sentence))))}


def encode(sentence, vocab):
    """The id of each word of the sentence, in order, as a LongTensor of shape (seq,).

    An unknown word raises KeyError naming the word.
    """
    ids = []
    for word in split_words(sentence):
        if word not in vocab:
            raise KeyError(f"the word {word!r} is not in the vocabulary")
        ids.append(vocab[word])
    return torch.tensor(ids, dtype=torch.long)  # (seq,)


def embed(token_ids, vocab_size, dim, seed=123):
    """Look the ids up in a freshly seeded embedding table.

    PyTorch's generator is seeded with `seed` before the table nn.Embedding(vocab_size, dim)
    is made, so that a seed always draws the same table of a given shape.
    token_ids: (seq,). Returns (seq, dim), detached.
    """
    torch.manual_seed(seed)
    table = nn.Embedding(vocab_size, dim)
    return table(token_ids).detach()  # (seq, dim)
