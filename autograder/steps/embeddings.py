"""Hidden checks of 02_embeddings: documents 000, 001 and 002's vocabularies, ids and
embedding tables, and hand-made sentences with capitals, punctuation and repeated words."""

from __future__ import annotations

import torch

import solutions
from autograder.checking import Case, Mistake, Step
from autograder.steps.common import sizes

# Document 000: 'Life is short, eat dessert first'.
SENTENCE_000 = "Life is short, eat dessert first"
VOCAB_000 = {"Life": 0, "dessert": 1, "eat": 2, "first": 3, "is": 4, "short": 5}
IDS_000 = torch.tensor([0, 4, 5, 2, 1, 3])
EMBEDDING_000 = torch.tensor(
    [
        [0.3374, -0.1778, -0.3035, -0.5880, 0.3486, 0.6603, -0.2196, -0.3792,
         0.7671, -1.1925, 0.6984, -1.4097, 0.1794, 1.8951, 0.4954, 0.2692],
        [0.5146, 0.9938, -0.2587, -1.0826, -0.0444, 1.6236, -2.3229, 1.0878,
         0.6716, 0.6933, -0.9487, -0.0765, -0.1526, 0.1167, 0.4403, -1.4465],
        [0.2553, -0.5496, 1.0042, 0.8272, -0.3948, 0.4892, -0.2168, -1.7472,
         -1.6025, -1.0764, 0.9031, -0.7218, -0.5951, -0.7112, 0.6230, -1.3729],
        [-1.3250, 0.1784, -2.1338, 1.0524, -0.3885, -0.9343, -0.4991, -1.0867,
         0.8805, 1.5542, 0.6266, -0.1755, 0.0983, -0.0935, 0.2662, -0.5850],
        [-0.0770, -1.0205, -0.1690, 0.9178, 1.5810, 1.3010, 1.2753, -0.2010,
         0.4965, -1.5723, 0.9666, -1.1481, -1.1589, 0.3255, -0.6315, -2.8400],
        [0.8768, 1.6221, -1.4779, 1.1331, -1.2203, 1.3139, 1.0533, 0.1388,
         2.2473, -0.8036, -0.2808, 0.7697, -0.6596, -0.7979, 0.1838, 0.2293],
    ]
)

# Document 001: 'The sun rises in the east', nn.Embedding(50000, 3) under seed 123.
SENTENCE_001 = "The sun rises in the east"
VOCAB_001 = {"The": 0, "east": 1, "in": 2, "rises": 3, "sun": 4, "the": 5}
IDS_001 = torch.tensor([0, 4, 3, 2, 5, 1])
VOCAB_SIZE_001 = 50_000
EMBEDDING_001 = torch.tensor(
    [
        [0.3374, -0.1778, -0.3035],
        [0.1794, 1.8951, 0.4954],
        [-1.1925, 0.6984, -1.4097],
        [-0.2196, -0.3792, 0.7671],
        [0.2692, -0.0770, -1.0205],
        [-0.5880, 0.3486, 0.6603],
    ]
)

# Document 002: 'Life is short, eat dessert last'.
SENTENCE_002 = "Life is short, eat dessert last"
VOCAB_002 = {"Life": 0, "dessert": 1, "eat": 2, "is": 3, "last": 4, "short": 5}
IDS_002 = torch.tensor([0, 3, 5, 2, 1, 4])
EMBEDDING_002 = torch.tensor(
    [
        [0.3374, -0.1778, -0.3035, -0.5880, 0.3486, 0.6603, -0.2196, -0.3792,
         0.7671, -1.1925, 0.6984, -1.4097, 0.1794, 1.8951, 0.4954, 0.2692],
        [0.8768, 1.6221, -1.4779, 1.1331, -1.2203, 1.3139, 1.0533, 0.1388,
         2.2473, -0.8036, -0.2808, 0.7697, -0.6596, -0.7979, 0.1838, 0.2293],
        [0.2553, -0.5496, 1.0042, 0.8272, -0.3948, 0.4892, -0.2168, -1.7472,
         -1.6025, -1.0764, 0.9031, -0.7218, -0.5951, -0.7112, 0.6230, -1.3729],
        [-1.3250, 0.1784, -2.1338, 1.0524, -0.3885, -0.9343, -0.4991, -1.0867,
         0.8805, 1.5542, 0.6266, -0.1755, 0.0983, -0.0935, 0.2662, -0.5850],
        [-0.0770, -1.0205, -0.1690, 0.9178, 1.5810, 1.3010, 1.2753, -0.2010,
         0.4965, -1.5723, 0.9666, -1.1481, -1.1589, 0.3255, -0.6315, -2.8400],
        [0.5146, 0.9938, -0.2587, -1.0826, -0.0444, 1.6236, -2.3229, 1.0878,
         0.6716, 0.6933, -0.9487, -0.0765, -0.1526, 0.1167, 0.4403, -1.4465],
    ]
)
# ... and its x_2, printed on its own.
X_2_002 = torch.tensor(
    [0.8768, 1.6221, -1.4779, 1.1331, -1.2203, 1.3139, 1.0533, 0.1388,
     2.2473, -0.8036, -0.2808, 0.7697, -0.6596, -0.7979, 0.1838, 0.2293]
)

DOCUMENTS = (
    ("000", SENTENCE_000, VOCAB_000, IDS_000),
    ("001", SENTENCE_001, VOCAB_001, IDS_001),
    ("002", SENTENCE_002, VOCAB_002, IDS_002),
)

# Words for random sentences: capitals beside lower case, near-duplicates, no apostrophes.
WORDS = (
    "Life", "life", "The", "the", "sun", "Sun", "rises", "in", "east", "eat", "dessert",
    "short", "is", "first", "last", "Zebra", "apple", "Apple", "tea", "a", "B", "b",
)
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


def with_fresh_copy(sentence, vocab):
    """A run that hands the subject its own copy of the vocabulary."""
    return lambda subject: subject(sentence, dict(vocab))


# build_vocab -----------------------------------------------------------------------------


def build_vocab_documents():
    return [
        Case(f"document {doc}: the vocabulary", lambda s, text=text: s(text), vocab)
        for doc, text, vocab, _ in DOCUMENTS
    ]


def build_vocab_random(gen):
    cases = []
    for i, length in enumerate(sizes_of_sentences(gen)):
        text = random_sentence(gen, length)
        cases.append(Case(f"random sentence {i + 1}", lambda s, text=text: s(text)))
    return cases


def sizes_of_sentences(gen):
    return [4 + int(n) for n in torch.randperm(6, generator=gen)[:3]]


BUILD_VOCAB = Step(
    name="build_vocab",
    reference=solutions.build_vocab,
    document_cases=build_vocab_documents,
    random_cases=build_vocab_random,
    mistakes=(
        Mistake(
            "unsorted vocabulary",
            "build_vocab",
            "the ids follow the sorted order of the words (Python's sorted), not the order "
            "in which they appear in the sentence",
            "def build_vocab(sentence):\n"
            "    kept = ''.join(ch for ch in sentence if ch not in string.punctuation)\n"
            "    return {w: i for i, w in enumerate(dict.fromkeys(kept.split()))}\n",
        ),
        Mistake(
            "punctuation kept",
            "build_vocab",
            "'short,' and 'short' are the same word: remove the punctuation before splitting "
            "(split_words does it for you)",
            "def build_vocab(sentence):\n"
            "    return {w: i for i, w in enumerate(sorted(set(sentence.split())))}\n",
        ),
        Mistake(
            "only commas removed",
            "build_vocab",
            "every punctuation mark must go, not only commas: '.', '!', '?' ... too",
            "def build_vocab(sentence):\n"
            "    words = sentence.replace(',', '').split()\n"
            "    return {w: i for i, w in enumerate(sorted(set(words)))}\n",
        ),
        Mistake(
            "words lower-cased",
            "build_vocab",
            "keep the words as they are written: 'The' and 'the' are two entries",
            "def build_vocab(sentence):\n"
            "    kept = ''.join(ch for ch in sentence if ch not in string.punctuation)\n"
            "    words = kept.lower().split()\n"
            "    return {w: i for i, w in enumerate(sorted(set(words)))}\n",
        ),
        Mistake(
            "case-insensitive sort",
            "build_vocab",
            "sort as Python sorts strings, with no key: capitals come before lower case",
            "def build_vocab(sentence):\n"
            "    kept = ''.join(ch for ch in sentence if ch not in string.punctuation)\n"
            "    words = sorted(set(kept.split()), key=str.lower)\n"
            "    return {w: i for i, w in enumerate(words)}\n",
        ),
        Mistake(
            "repeated words numbered twice",
            "build_vocab",
            "a word that occurs twice gets one id: number the distinct words, so the ids run "
            "0, 1, 2, ... without gaps",
            "def build_vocab(sentence):\n"
            "    kept = ''.join(ch for ch in sentence if ch not in string.punctuation)\n"
            "    return {w: i for i, w in enumerate(sorted(kept.split()))}\n",
        ),
    ),
)

# encode ----------------------------------------------------------------------------------


def encode_documents():
    return [
        Case(f"document {doc}: the ids", with_fresh_copy(text, vocab), ids)
        for doc, text, vocab, ids in DOCUMENTS
    ]


def encode_random(gen):
    cases = [
        Case(
            "a short sentence with document 000's vocabulary",
            with_fresh_copy("dessert first, Life!", VOCAB_000),
        )
    ]
    for i, length in enumerate(sizes_of_sentences(gen)):
        long_text = random_sentence(gen, length + 4)
        vocab = solutions.build_vocab(long_text)
        words = solutions.split_words(long_text)
        chosen = [words[j] for j in pick(gen, length, len(words))]
        text = ", ".join(chosen) + "!"
        cases.append(Case(f"random sentence {i + 1}", with_fresh_copy(text, vocab)))
    return cases


def unknown_word_raises_key_error(subject, gen):
    unknown = "zzyzx"
    try:
        subject(f"Life is {unknown}, eat dessert", dict(VOCAB_000))
    except KeyError as error:
        assert unknown in str(error), (
            f"the KeyError for an unknown word should name the word, but it says {error}"
        )
        return
    raise AssertionError("a word that is not in the vocabulary should raise KeyError")


ENCODE = Step(
    name="encode",
    reference=solutions.encode,
    document_cases=encode_documents,
    random_cases=encode_random,
    properties=(unknown_word_raises_key_error,),
    mistakes=(
        Mistake(
            "ids in a list, not a tensor",
            "encode",
            "return the ids as a tensor: torch.tensor(ids) of integers",
            "def encode(sentence, vocab):\n"
            "    kept = ''.join(ch for ch in sentence if ch not in string.punctuation)\n"
            "    return [vocab[w] for w in kept.split()]\n",
        ),
        Mistake(
            "float ids",
            "encode",
            "ids index a table, so they must be integers (dtype torch.long), not floats",
            "def encode(sentence, vocab):\n"
            "    kept = ''.join(ch for ch in sentence if ch not in string.punctuation)\n"
            "    return torch.Tensor([vocab[w] for w in kept.split()])\n",
        ),
        Mistake(
            "vocabulary rebuilt from the sentence",
            "encode",
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
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(EARLIER_SEED)
            torch.rand(7)  # something else drew random numbers before
            out = subject(token_ids.clone(), vocab_size, dim, *seed)
        return extract(out) if extract else out

    return run


def embed_documents():
    return [
        Case("document 000: the 6x16 embedding", embedding(IDS_000, 6, 16), EMBEDDING_000),
        Case(
            "document 001: the 6x3 embedding (vocab_size 50000)",
            embedding(IDS_001, VOCAB_SIZE_001, 3),
            EMBEDDING_001,
        ),
        Case("document 002: the 6x16 embedding", embedding(IDS_002, 6, 16), EMBEDDING_002),
        Case(
            "document 002: the embedding of word 2",
            embedding(IDS_002, 6, 16, extract=lambda out: out[1]),
            X_2_002,
        ),
    ]


def embed_random(gen):
    cases = []
    for i in range(3):
        seq, vocab_size, dim = sizes(gen, 3)
        ids = torch.randint(vocab_size, (seq,), generator=gen)
        seed = 1000 + int(torch.randint(9000, (1,), generator=gen))
        cases.append(
            Case(f"random case {i + 1} (seed {seed})", embedding(ids, vocab_size, dim, seed))
        )
    cases.append(
        Case(
            "requires_grad of the result (it should be detached)",
            embedding(torch.tensor([1, 0, 2]), 4, 5, extract=lambda out: out.requires_grad),
            False,
        )
    )
    return cases


def same_ids_same_vectors(subject, gen):
    vocab_size, dim = sizes(gen, 2)
    ids = torch.tensor([1, 0, 1])
    out = subject(ids, vocab_size, dim)
    assert torch.equal(out[0], out[2]), "the same id should give the same vector"


EMBED = Step(
    name="embed",
    reference=solutions.embed,
    document_cases=embed_documents,
    random_cases=embed_random,
    properties=(same_ids_same_vectors,),
    mistakes=(
        Mistake(
            "embedding made before seeding",
            "embed",
            "nn.Embedding draws its table when it is created, so call torch.manual_seed(seed) "
            "before making it",
            "def embed(token_ids, vocab_size, dim, seed=123):\n"
            "    table = nn.Embedding(vocab_size, dim)\n"
            "    torch.manual_seed(seed)\n"
            "    return table(token_ids).detach()\n",
        ),
        Mistake(
            "seed argument ignored",
            "embed",
            "seed the generator with the `seed` the caller passes, not a fixed number",
            "def embed(token_ids, vocab_size, dim, seed=123):\n"
            "    torch.manual_seed(123)\n"
            "    return nn.Embedding(vocab_size, dim)(token_ids).detach()\n",
        ),
        Mistake(
            "table sized by the sentence",
            "embed",
            "the table has one row per word of the vocabulary: nn.Embedding(vocab_size, dim), "
            "whatever the sentence's length",
            "def embed(token_ids, vocab_size, dim, seed=123):\n"
            "    torch.manual_seed(seed)\n"
            "    return nn.Embedding(len(token_ids), dim)(token_ids).detach()\n",
        ),
        Mistake(
            "not detached",
            "embed",
            "the vectors are data here, not parameters to train: return them .detach()ed",
            "def embed(token_ids, vocab_size, dim, seed=123):\n"
            "    torch.manual_seed(seed)\n"
            "    return nn.Embedding(vocab_size, dim)(token_ids)\n",
        ),
    ),
)

STEPS = (BUILD_VOCAB, ENCODE, EMBED)
