"""Hidden checks of 06_scoring_functions: document 003's four scoring functions and its
double-loop attention, in the document's column convention (one input per column)."""

from __future__ import annotations

import torch
import torch.nn.functional as F

from autograder.checks.common import (
    calling,
    enters,
    forbids_entering,
    forbids_loops,
    randn,
    same_work,
    sizes,
)
from autograder.checks.compare import TOLERANCE, close
from autograder.checks.model import Case, Mistake, Similar, Step
from autograder.i18n import t

from .. import recipes
from ..documents import DOC003_LOOP_OUTPUT, example
from . import reference


def document_inputs():
    """X, W_Q, W_K, W_V as document 003 draws them (seed 0, in this order)."""
    draw = recipes.document_003()
    return draw.X, draw.W_Q, draw.W_K, draw.W_V


def is_scalar(score, what):
    assert isinstance(score, torch.Tensor) and score.dim() == 0, t(
        "{what} should be a 0-dim tensor (one number), not {kind} of shape {shape}",
        what=what, kind=type(score).__name__, shape=tuple(getattr(score, "shape", ()))
    )


# dot_score -------------------------------------------------------------------------------


def vector_pairs_random(gen):
    """Three random (k, q) pairs of distinct lengths: the cases of both dot scores."""
    cases = []
    for i, d in enumerate(sizes(gen, 3)):
        cases.append(Case(t("random case {number} (d = {d})", number=i + 1, d=d),
                          calling(randn(gen, d), randn(gen, d))))
    return cases


def dot_score_properties(subject, gen):
    """The dot score is symmetric and grows in proportion to q."""
    (d,) = sizes(gen, 1)
    k, q = randn(gen, d), randn(gen, d)
    score = subject(k.clone(), q.clone())
    is_scalar(score, "dot_score")
    close(subject(q.clone(), k.clone()), score, t("dot_score(k, q) should equal dot_score(q, k)"))
    close(subject(k.clone(), 3 * q), 3 * score, t("tripling q should triple the dot score"))


DOT_SCORE = Step(
    name="dot_score",
    reference=reference.dot_score,
    random_cases=vector_pairs_random,
    properties=(dot_score_properties,),
    mistakes=(
        Mistake(
            "elementwise product not summed",
            "k * q multiplies entry by entry; a score is one number, the sum of those products",
            "def dot_score(k, q):\n    return k * q\n",
        ),
    ),
)

# scaled_dot_score ------------------------------------------------------------------------


def scaled_dot_score_properties(subject, gen):
    """The scaled dot score is k · q divided by sqrt(d)."""
    (d,) = sizes(gen, 1)
    k, q = randn(gen, d), randn(gen, d)
    score = subject(k.clone(), q.clone())
    is_scalar(score, "scaled_dot_score")
    close(score, (k * q).sum() / d**0.5, t("scaled_dot_score should be k . q / sqrt(d)"))
    # Repeating both vectors 4 times multiplies k . q by 4 and sqrt(d) by 2.
    longer = subject(k.repeat(4), q.repeat(4))
    close(longer, 2 * score, t("vectors 4 times as long (k repeated, q repeated) should double "
                               "the scaled score"))


SCALED_DOT_SCORE = Step(
    name="scaled_dot_score",
    reference=reference.scaled_dot_score,
    random_cases=vector_pairs_random,
    properties=(scaled_dot_score_properties,),
    mistakes=(
        Mistake(
            "scaled by d instead of sqrt(d)",
            "divide by the square root of the vectors' length, not by the length itself",
            "def scaled_dot_score(k, q):\n    return torch.dot(k, q) / k.shape[0]\n",
        ),
        Mistake(
            "not scaled",
            "the scaled dot score divides k . q by the square root of the vectors' length",
            "def scaled_dot_score(k, q):\n    return torch.dot(k, q)\n",
        ),
    ),
)

# additive_score --------------------------------------------------------------------------


def additive_inputs(gen, d_k, d_q, d_a):
    k, q = randn(gen, d_k), randn(gen, d_q)
    return k, q, randn(gen, d_a, d_k), randn(gen, d_a, d_q), randn(gen, d_a)


def additive_score_random(gen):
    cases = []
    for i in range(3):
        d_k, d_q, d_a = sizes(gen, 3)
        label = t("random case {number} (d_k = {d_k}, d_q = {d_q}, d_a = {d_a})",
                  number=i + 1, d_k=d_k, d_q=d_q, d_a=d_a)
        cases.append(Case(label, calling(*additive_inputs(gen, d_k, d_q, d_a))))
    d, d_a = sizes(gen, 2)
    label = t("random case with keys and queries of one size (d = {d}, d_a = {d_a})",
              d=d, d_a=d_a)
    cases.append(Case(label, calling(*additive_inputs(gen, d, d, d_a))))
    return cases


def additive_score_properties(subject, gen):
    """The additive score grows in proportion to v and stays within sum(|v|)."""
    d_k, d_q, d_a = sizes(gen, 3)
    k, q, W, U, v = additive_inputs(gen, d_k, d_q, d_a)
    score = subject(k.clone(), q.clone(), W.clone(), U.clone(), v.clone())
    is_scalar(score, "additive_score")
    doubled = subject(k.clone(), q.clone(), W.clone(), U.clone(), 2 * v)
    close(doubled, 2 * score, t("doubling v should double the additive score"))
    bound = float(v.abs().sum())
    assert abs(float(score)) <= bound + TOLERANCE["atol"], t(
        "the additive score should never exceed sum(|v|) in size (tanh lies in [-1, 1])"
    )


ADDITIVE_SCORE = Step(
    name="additive_score",
    reference=reference.additive_score,
    random_cases=additive_score_random,
    properties=(additive_score_properties,),
    mistakes=(
        Mistake(
            "W and U swapped",
            "W acts on the key (W is (d_a, d_k)) and U on the query (U is (d_a, d_q))",
            "def additive_score(k, q, W, U, v):\n"
            "    return torch.dot(v, torch.tanh(W @ q + U @ k))\n",
        ),
        Mistake(
            "tanh left out",
            "the additive model passes W k + U q through tanh before the dot product with v",
            "def additive_score(k, q, W, U, v):\n"
            "    return torch.dot(v, W @ k + U @ q)\n",
        ),
    ),
)

# bilinear_score --------------------------------------------------------------------------


def bilinear_score_random(gen):
    cases = []
    for i in range(3):
        d_k, d_q = sizes(gen, 2)
        run = calling(randn(gen, d_k), randn(gen, d_q), randn(gen, d_k, d_q))
        cases.append(Case(t("random case {number} (d_k = {d_k}, d_q = {d_q})", number=i + 1,
                            d_k=d_k, d_q=d_q), run))
    (d,) = sizes(gen, 1)
    run = calling(randn(gen, d), randn(gen, d), randn(gen, d, d))
    cases.append(Case(t("random case with a square, non-symmetric W (d = {d})", d=d), run))
    return cases


def bilinear_score_properties(subject, gen):
    """The bilinear score is linear in k and is the dot score when W is the identity."""
    d_k, d_q = sizes(gen, 2)
    k, q, W = randn(gen, d_k), randn(gen, d_q), randn(gen, d_k, d_q)
    score = subject(k.clone(), q.clone(), W.clone())
    is_scalar(score, "bilinear_score")
    close(subject(-2 * k, q.clone(), W.clone()), -2 * score,
          t("multiplying k by -2 should multiply the bilinear score by -2"))
    (d,) = sizes(gen, 1)
    k, q = randn(gen, d), randn(gen, d)
    close(subject(k.clone(), q.clone(), torch.eye(d)), (k * q).sum(),
          t("with W the identity, the bilinear score should be the dot score"))


BILINEAR_SCORE = Step(
    name="bilinear_score",
    reference=reference.bilinear_score,
    random_cases=bilinear_score_random,
    properties=(bilinear_score_properties,),
    mistakes=(
        Mistake(
            "bilinear matrix transposed",
            "W is (d_k, d_q): it multiplies the query, and the key is dotted with the result",
            "def bilinear_score(k, q, W):\n    return torch.dot(q, W @ k)\n",
        ),
    ),
)

# loop_attention and vectorized_attention --------------------------------------------------


def column_inputs(gen):
    """X (d1, N), W_Q and W_K (d3, d1), W_V (d2, d1) with d1, d2, d3, N distinct."""
    d1, d2, d3, n = sizes(gen, 4)
    X = randn(gen, d1, n)
    return X, randn(gen, d3, d1), randn(gen, d3, d1), randn(gen, d2, d1)


def attention_documents():
    run = calling(*document_inputs())
    label = t("{example}: H as the source's double loop printed it", example=example("003"))
    return [Case(label, run, DOC003_LOOP_OUTPUT)]


def attention_random(gen):
    cases = []
    for i in range(3):
        X, W_Q, W_K, W_V = column_inputs(gen)
        (d1, n), d3, d2 = X.shape, W_Q.shape[0], W_V.shape[0]
        label = t("random case {number} (d1 = {d1}, N = {n}, d3 = {d3}, d2 = {d2})",
                  number=i + 1, d1=d1, n=n, d3=d3, d2=d2)
        cases.append(Case(label, calling(X, W_Q, W_K, W_V)))
    return cases


def columns_permute_with_inputs(subject, gen):
    """Reordering the columns of X reorders the columns of H the same way."""
    X, W_Q, W_K, W_V = column_inputs(gen)
    order = torch.randperm(X.shape[1], generator=gen)
    H = subject(X.clone(), W_Q.clone(), W_K.clone(), W_V.clone())
    permuted = subject(X[:, order], W_Q.clone(), W_K.clone(), W_V.clone())
    close(permuted, H[:, order], t("permuting the columns of X should permute the columns of H "
                                   "in the same way"))


def equals_torch_attention(subject, gen):
    """H matches torch's scaled_dot_product_attention."""
    X, W_Q, W_K, W_V = column_inputs(gen)
    H = subject(X.clone(), W_Q.clone(), W_K.clone(), W_V.clone())
    rows = F.scaled_dot_product_attention((W_Q @ X).T, (W_K @ X).T, (W_V @ X).T)  # (N, d2)
    close(H, rows.T, t("H should equal torch.nn.functional.scaled_dot_product_attention on the "
                       "transposed queries, keys and values, transposed back"))


LOOP_ATTENTION = Step(
    name="loop_attention",
    reference=reference.loop_attention,
    document_cases=attention_documents,
    random_cases=attention_random,
    # Not columns_permute_with_inputs: two calls of a loop over every query and key, recorded
    # call by call, were 40 % of grading a correct notebook, and every mutant of the reference
    # it caught, the cases catch too (bench/check_costs.py, `python -m autograder mutate`).
    properties=(equals_torch_attention,),
    rules=(
        enters("calls scaled_dot_score for each query and key", "scaled_dot_score",
               "this step is the loop over queries and keys, each key scored against each "
               "query with your scaled_dot_score", per=((0, 1), (0, 1))),
    ),
    uses=("scaled_dot_score",),
    mistakes=(
        Mistake(
            "query and key indices swapped",
            "for output i, score every key j against query i: s(k_j, q_i), then softmax over j",
            "def loop_attention(X, W_Q, W_K, W_V):\n"
            "    Q, K, V = W_Q @ X, W_K @ X, W_V @ X\n"
            "    N = X.shape[1]\n"
            "    H = torch.zeros(V.shape[0], N)\n"
            "    for i in range(N):\n"
            "        scores = torch.stack([scaled_dot_score(K[:, i], Q[:, j]) for j in range(N)])\n"
            "        weights = torch.softmax(scores, dim=0)\n"
            "        for j in range(N):\n"
            "            H[:, i] += weights[j] * V[:, j]\n"
            "    return H\n",
        ),
        Mistake(
            "outputs stacked as rows",
            "in this notebook's column convention each output h_i is a column: H is (d2, N)",
            "def loop_attention(X, W_Q, W_K, W_V):\n"
            "    Q, K, V = W_Q @ X, W_K @ X, W_V @ X\n"
            "    N = X.shape[1]\n"
            "    outputs = []\n"
            "    for i in range(N):\n"
            "        scores = torch.stack([scaled_dot_score(K[:, j], Q[:, i]) for j in range(N)])\n"
            "        weights = torch.softmax(scores, dim=0)\n"
            "        outputs.append(sum(weights[j] * V[:, j] for j in range(N)))\n"
            "    return torch.stack(outputs)\n",
        ),
    ),
)

VECTORIZED_ATTENTION = Step(
    name="vectorized_attention",
    reference=reference.vectorized_attention,
    document_cases=attention_documents,
    random_cases=attention_random,
    properties=(columns_permute_with_inputs, equals_torch_attention),
    rules=(
        forbids_loops("no Python loop"),
        same_work("no work repeated per query", [(0, 1, "query")]),
        forbids_entering(
            "no call to loop_attention or scaled_dot_score",
            {"loop_attention", "scaled_dot_score"},
            "the point is to replace the loop by matrix products",
        ),
    ),
    mistakes=(
        Mistake(
            "softmax over the wrong dim",
            "each query's weights over the keys must sum to 1; check which axis of your score "
            "matrix holds the keys",
            "def vectorized_attention(X, W_Q, W_K, W_V):\n"
            "    Q, K, V = W_Q @ X, W_K @ X, W_V @ X\n"
            "    scores = K.T @ Q / math.sqrt(K.shape[0])\n"
            "    return V @ torch.softmax(scores, dim=1)\n",
        ),
        Mistake(
            "no 1/sqrt(d)",
            "the loop scores with the scaled dot product: divide by the square root of the "
            "query/key size",
            "def vectorized_attention(X, W_Q, W_K, W_V):\n"
            "    Q, K, V = W_Q @ X, W_K @ X, W_V @ X\n"
            "    return V @ torch.softmax(K.T @ Q, dim=0)\n",
        ),
        Mistake(
            "scaled by the value size",
            "d in 1/sqrt(d) is the size of the queries and keys (the rows of W_Q), not of the "
            "values",
            "def vectorized_attention(X, W_Q, W_K, W_V):\n"
            "    Q, K, V = W_Q @ X, W_K @ X, W_V @ X\n"
            "    return V @ torch.softmax(K.T @ Q / math.sqrt(V.shape[0]), dim=0)\n",
        ),
    ),
)

STEPS = (
    DOT_SCORE,
    SCALED_DOT_SCORE,
    ADDITIVE_SCORE,
    BILINEAR_SCORE,
    LOOP_ATTENTION,
    VECTORIZED_ATTENTION,
)

# When the similarity report flags a pair (bench/similarity_calibration.py 06_scoring_functions):
# honest pairs reach 0.228 and 94 characters; every copy of one disguise has 0.573 or
# more and 316 characters or more.
SIMILARITY = Similar(share=0.40, characters=200)
