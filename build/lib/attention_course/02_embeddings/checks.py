"""Hidden checks of 02_embeddings: documents 000, 001 and 002's vocabularies, ids and
embedding tables, and hand-made sentences with capitals, punctuation and repeated words."""

from __future__ import annotations

import functools
import unicodedata

import torch

from autograder.checks.common import sizes
from autograder.checks.model import Case, Mistake, Similar, Step
from autograder.i18n import t

from ..documents import (
    DOC000_EMBEDDING,
    DOC000_IDS,
    DOC000_SENTENCE,
    DOC000_VOCAB,
    DOC001_EMBEDDING,
    DOC001_IDS,
    DOC001_SENTENCE,
    DOC001_VOCAB,
    DOC001_VOCAB_SIZE,
    DOC002_EMBEDDING,
    DOC002_IDS,
    DOC002_SENTENCE,
    DOC002_VOCAB,
    DOC002_X_2,
    example,
)
from . import reference

# Documents 000, 001 and 002: each sentence with its printed vocabulary and token ids.
DOCUMENTS = (
    ("000", DOC000_SENTENCE, DOC000_VOCAB, DOC000_IDS),
    ("001", DOC001_SENTENCE, DOC001_VOCAB, DOC001_IDS),
    ("002", DOC002_SENTENCE, DOC002_VOCAB, DOC002_IDS),
)

# Words for random sentences: capitals beside lower case, near-duplicates, no apostrophes.
WORDS = (
    "Life", "life", "The", "the", "sun", "Sun", "rises", "in", "east", "eat", "dessert",
    "short", "is", "first", "last", "Zebra", "apple", "Apple", "tea", "a", "B", "b",
)

# Words with marks inside or around them, and numbers: split_words deletes every character
# of string.punctuation wherever it stands ("don't" becomes "dont"). Every one of them goes
# into each untidy sentence, so that every mark of string.punctuation is met on every draw,
# between runs of white space of several kinds.
UNTIDY_WORDS = (
    ("don't", "it's", "rock'n'roll"),
    ("snake_case", "_private", "x_1"),
    ("3", "12th", "#1", "2024"),
    ("(really)", '"quoted"', "[x]", "{y}"),
    ("well-known", "e.g.", "U.S.", "a/b"),
    ("「word」", "«mot»", "end。", "so…", "why？", "甜点，"),  # Unicode punctuation goes too
    ("€5", "a+b", "x²", "naïve"),  # symbols and letters outside ASCII stay
    ("$5", "50%", "R&D", "x*y", "a<b", "c=d", "e>f", "@home", "back\\slash", "2^10", "`code`",
     "a|b", "~user", "wait!", "so,", "note:", "x;y", "huh?"),  # ASCII symbols go like marks
)
WHITE_SPACE = (" ", "  ", "\t", "\n", " \t ")


@functools.cache
def unicode_marks():
    """The marks an untidy sentence draws beyond UNTIDY_WORDS': every character that Unicode
    counts as punctuation in the scripts up to CJK's and in the full-width forms, in the
    database of version 3.2 that every Python ships unchanged (and in this Python's); a split
    that removes only the marks listed above would otherwise pass. Made at the first untidy
    sentence, not at import."""
    return tuple(ch for ch in (chr(code) for code in (*range(0x80, 0x3100),
                                                      *range(0xFE10, 0x10000)))
                 if unicodedata.ucd_3_2_0.category(ch).startswith("P")
                 and unicodedata.category(ch).startswith("P"))


DRAWN_MARKS = 6  # words of an untidy sentence with a drawn mark before and after


MARKS = (",", ".", "!", "?", ";", ":")


def pick(gen, count, high):
    return [int(i) for i in torch.randint(high, (count,), generator=gen)]


def random_sentence(gen, length):
    """`length` + 1 words, one of them twice, a comma after the first and a full stop at
    the end, other marks here and there."""
    words = [WORDS[i] for i in pick(gen, length, len(WORDS))]
    words.append(words[pick(gen, 1, len(words))[0]])  # a repeated word
    order = torch.randperm(len(words), generator=gen)
    words = [words[int(i)] for i in order]
    marks = pick(gen, len(words), 2 * len(MARKS))  # about half the words get a mark
    marked = [w + MARKS[m] if m < len(MARKS) else w for w, m in zip(words, marks, strict=True)]
    marked[0] = marked[0].rstrip("".join(MARKS)) + ","
    marked[-1] = marked[-1].rstrip("".join(MARKS)) + "."
    return " ".join(marked)


def untidy_sentence(gen, length):
    """`length` words of WORDS, every word of UNTIDY_WORDS and DRAWN_MARKS words of WORDS
    between two of unicode_marks(), in random order, with white space of random kinds
    before, between and after them."""
    words = [WORDS[i] for i in pick(gen, length, len(WORDS))]
    words += [word for group in UNTIDY_WORDS for word in group]
    drawn = unicode_marks()
    marks = [drawn[i] for i in pick(gen, 2 * DRAWN_MARKS, len(drawn))]
    words += [marks[2 * n] + WORDS[i] + marks[2 * n + 1]
              for n, i in enumerate(pick(gen, DRAWN_MARKS, len(WORDS)))]
    words = [words[int(i)] for i in torch.randperm(len(words), generator=gen)]
    gaps = [WHITE_SPACE[i] for i in pick(gen, len(words), len(WHITE_SPACE))]
    ending = WHITE_SPACE[pick(gen, 1, len(WHITE_SPACE))[0]]
    return "".join(gap + word for gap, word in zip(gaps, words, strict=True)) + ending


def with_fresh_copy(sentence, vocab):
    """A run that hands the subject its own copy of the vocabulary."""
    return lambda subject: subject(sentence, dict(vocab))


# build_vocab -----------------------------------------------------------------------------


def build_vocab_documents():
    return [
        Case(t("{example}: the vocabulary", example=example(doc)), lambda s, text=text: s(text),
             vocab)
        for doc, text, vocab, _ in DOCUMENTS
    ]


def build_vocab_random(gen):
    cases = []
    for i, length in enumerate(sizes_of_sentences(gen)):
        text = random_sentence(gen, length)
        cases.append(Case(t("random sentence {number}", number=i + 1),
                          lambda s, text=text: s(text)))
    text = untidy_sentence(gen, sizes_of_sentences(gen)[0])
    cases.append(Case(untidy_label(), lambda s, text=text: s(text)))
    return cases


def untidy_label():
    return t("an untidy sentence (marks inside words, numbers, irregular white space)")


def sizes_of_sentences(gen):
    return [4 + int(n) for n in torch.randperm(6, generator=gen)[:3]]


BUILD_VOCAB = Step(
    name="build_vocab",
    reference=reference.build_vocab,
    document_cases=build_vocab_documents,
    random_cases=build_vocab_random,
    mistakes=(
        Mistake(
            "unsorted vocabulary",
            "the ids follow the sorted order of the words (Python's sorted), not the order "
            "in which they appear in the sentence",
            "def build_vocab(sentence):\n"
            "    kept = ''.join(ch for ch in sentence if ch not in string.punctuation)\n"
            "    return {w: i for i, w in enumerate(dict.fromkeys(kept.split()))}\n",
        ),
        Mistake(
            "punctuation kept",
            "'short,' and 'short' are the same word: remove the punctuation before splitting "
            "(split_words does it for you)",
            "def build_vocab(sentence):\n"
            "    return {w: i for i, w in enumerate(sorted(set(sentence.split())))}\n",
        ),
        Mistake(
            "only commas removed",
            "every punctuation mark must go, not only commas: '.', '!', '?' ... too",
            "def build_vocab(sentence):\n"
            "    words = sentence.replace(',', '').split()\n"
            "    return {w: i for i, w in enumerate(sorted(set(words)))}\n",
        ),
        Mistake(
            "words lower-cased",
            "keep the words as they are written: 'The' and 'the' are two entries",
            "def build_vocab(sentence):\n"
            "    kept = ''.join(ch for ch in sentence if ch not in string.punctuation)\n"
            "    words = kept.lower().split()\n"
            "    return {w: i for i, w in enumerate(sorted(set(words)))}\n",
        ),
        Mistake(
            "case-insensitive sort",
            "sort as Python sorts strings, with no key: capitals come before lower case",
            "def build_vocab(sentence):\n"
            "    kept = ''.join(ch for ch in sentence if ch not in string.punctuation)\n"
            "    words = sorted(set(kept.split()), key=str.lower)\n"
            "    return {w: i for i, w in enumerate(words)}\n",
        ),
        Mistake(
            "repeated words numbered twice",
            "a word that occurs twice gets one id: number the distinct words, so the ids run "
            "0, 1, 2, ... without gaps",
            "def build_vocab(sentence):\n"
            "    kept = ''.join(ch for ch in sentence if ch not in string.punctuation)\n"
            "    return {w: i for i, w in enumerate(sorted(kept.split()))}\n",
        ),
        Mistake(
            "ids start at 1",
            "the first word in sorted order gets id 0, not 1: enumerate already counts from 0 "
            "(do not pass start=1)",
            "def build_vocab(sentence):\n"
            "    kept = ''.join(ch for ch in sentence if ch not in string.punctuation)\n"
            "    return {w: i for i, w in enumerate(sorted(set(kept.split())), start=1)}\n",
        ),
    ),
)

# encode ----------------------------------------------------------------------------------


def encode_documents():
    """The documents' ids, and a fixed short sentence in one document's vocabulary."""
    return [
        *(Case(t("{example}: the ids", example=example(doc)), with_fresh_copy(text, vocab), ids)
          for doc, text, vocab, ids in DOCUMENTS),
        Case(
            t("a short sentence with the vocabulary of {example}", example=example("000")),
            with_fresh_copy("dessert first, Life!", DOC000_VOCAB),
        ),
    ]


def encode_random(gen):
    cases = []
    for i, length in enumerate(sizes_of_sentences(gen)):
        long_text = random_sentence(gen, length + 4)
        vocab = reference.build_vocab(long_text)
        words = reference.split_words(long_text)
        chosen = [words[j] for j in pick(gen, length, len(words))]
        text = ", ".join(chosen) + "!"
        cases.append(Case(t("random sentence {number}", number=i + 1),
                          with_fresh_copy(text, vocab)))
    text = untidy_sentence(gen, sizes_of_sentences(gen)[0])
    vocab = reference.build_vocab(f"{text} {random_sentence(gen, 4)}")  # and other words
    cases.append(Case(untidy_label(), with_fresh_copy(text, vocab)))
    return cases


def unknown_word_raises_key_error(subject, gen):
    """A word missing from the vocabulary raises a KeyError naming it."""
    unknown = "zzyzx"
    try:
        subject(f"Life is {unknown}, eat dessert", dict(DOC000_VOCAB))
    except KeyError as error:
        assert unknown in str(error), t(
            "the KeyError for an unknown word should name the word, but it says {error}",
            error=error)
        return
    raise AssertionError(t("a word that is not in the vocabulary should raise KeyError"))


ENCODE = Step(
    name="encode",
    reference=reference.encode,
    document_cases=encode_documents,
    random_cases=encode_random,
    properties=(unknown_word_raises_key_error,),
    mistakes=(
        Mistake(
            "ids in a list, not a tensor",
            "return the ids as a tensor: torch.tensor(ids) of integers",
            "def encode(sentence, vocab):\n"
            "    kept = ''.join(ch for ch in sentence if ch not in string.punctuation)\n"
            "    return [vocab[w] for w in kept.split()]\n",
        ),
        Mistake(
            "float ids",
            "ids index a table, so they must be integers (dtype torch.long), not floats",
            "def encode(sentence, vocab):\n"
            "    kept = ''.join(ch for ch in sentence if ch not in string.punctuation)\n"
            "    return torch.Tensor([vocab[w] for w in kept.split()])\n",
        ),
        Mistake(
            "vocabulary rebuilt from the sentence",
            "look the words up in the vocabulary you are given; it may hold more words than "
            "this sentence",
            "def encode(sentence, vocab):\n"
            "    kept = ''.join(ch for ch in sentence if ch not in string.punctuation)\n"
            "    own = {w: i for i, w in enumerate(sorted(set(kept.split())))}\n"
            "    return torch.tensor([own[w] for w in kept.split()])\n",
        ),
    ),
)

# embed -----------------------------------------------------------------------------------

# The global random state a notebook may be in when embed is called: anything but the seed.
EARLIER_SEED = 0


def embedding(token_ids, vocab_size, dim, *seed, extract=None):
    """A run: call the subject after other random draws, leaving the caller's random state
    as it was."""

    def run(subject):
        # something else drew 7 random numbers before
        out = subject.seeded(EARLIER_SEED, token_ids.clone(), vocab_size, dim, *seed, burn=7)
        return extract(out) if extract else out

    return run


def embed_documents():
    return [
        Case(t("{example}: the 6x16 embedding", example=example("000")),
             embedding(DOC000_IDS, 6, 16), DOC000_EMBEDDING),
        Case(
            t("{example}: the 6x3 embedding (vocab_size 50000)", example=example("001")),
            embedding(DOC001_IDS, DOC001_VOCAB_SIZE, 3),
            DOC001_EMBEDDING,
        ),
        Case(t("{example}: the 6x16 embedding", example=example("002")),
             embedding(DOC002_IDS, 6, 16), DOC002_EMBEDDING),
        Case(
            t("{example}: the embedding of word {number}", example=example("002"), number=2),
            embedding(DOC002_IDS, 6, 16, extract=lambda out: out[1]),
            DOC002_X_2,
        ),
        Case(
            t("requires_grad of the result (it should be detached)"),
            embedding(torch.tensor([1, 0, 2]), 4, 5, extract=lambda out: out.requires_grad),
            False,
        ),
    ]


def embed_random(gen):
    cases = []
    for i in range(3):
        seq, vocab_size, dim = sizes(gen, 3)
        ids = torch.randint(vocab_size, (seq,), generator=gen)
        seed = 1000 + int(torch.randint(9000, (1,), generator=gen))
        cases.append(
            Case(t("random case {number} (seed {seed})", number=i + 1, seed=seed),
                 embedding(ids, vocab_size, dim, seed))
        )
    return cases


def same_ids_same_vectors(subject, gen):
    """The same id always gives the same vector."""
    vocab_size, dim = sizes(gen, 2)
    ids = torch.tensor([1, 0, 1])
    out = subject(ids, vocab_size, dim)
    assert torch.equal(out[0], out[2]), t("the same id should give the same vector")


EMBED = Step(
    name="embed",
    reference=reference.embed,
    document_cases=embed_documents,
    random_cases=embed_random,
    properties=(same_ids_same_vectors,),
    mistakes=(
        Mistake(
            "embedding made before seeding",
            "nn.Embedding draws its table when it is created, so call torch.manual_seed(seed) "
            "before making it",
            "def embed(token_ids, vocab_size, dim, seed=123):\n"
            "    table = nn.Embedding(vocab_size, dim)\n"
            "    torch.manual_seed(seed)\n"
            "    return table(token_ids).detach()\n",
        ),
        Mistake(
            "seed argument ignored",
            "seed the generator with the `seed` the caller passes, not a fixed number",
            "def embed(token_ids, vocab_size, dim, seed=123):\n"
            "    torch.manual_seed(123)\n"
            "    return nn.Embedding(vocab_size, dim)(token_ids).detach()\n",
        ),
        Mistake(
            "table sized by the sentence",
            "the table has one row per word of the vocabulary: nn.Embedding(vocab_size, dim), "
            "whatever the sentence's length",
            "def embed(token_ids, vocab_size, dim, seed=123):\n"
            "    torch.manual_seed(seed)\n"
            "    return nn.Embedding(len(token_ids), dim)(token_ids).detach()\n",
        ),
        Mistake(
            "not detached",
            "the vectors are data here, not parameters to train: return them .detach()ed",
            "def embed(token_ids, vocab_size, dim, seed=123):\n"
            "    torch.manual_seed(seed)\n"
            "    return nn.Embedding(vocab_size, dim)(token_ids)\n",
        ),
    ),
)

STEPS = (BUILD_VOCAB, ENCODE, EMBED)

# When the similarity report flags a pair (bench/similarity_calibration.py 02_embeddings):
# honest pairs reach a share of 0.541 (113 characters), and a copy of one disguise
# (helpers inlined) scores 0.359 (75 characters): no share and count of characters tell them
# apart.
SIMILARITY = Similar(tells=False)
