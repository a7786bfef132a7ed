"""Hidden checks of 08_transformer_block: what document 004's outlook names after attention
(positional encoding, LayerNorm, stacking), built as "Attention Is All You Need" builds it.

No document prints these steps' values, so they are checked against PyTorch on fresh random
inputs (F.layer_norm, nn.TransformerEncoderLayer in eval mode, the sinusoid formula in
float64) and by their invariants (a causal block ignores the future, the sequences of a batch
do not mix, reordering the positions of an unmasked block reorders its output).
"""

from __future__ import annotations

import inspect

import torch
import torch.nn.functional as F
from torch import nn

from autograder.checks.common import (
    calling,
    enters,
    forbids_ops,
    randn,
    random_seed,
    requires_ops,
    rewritten,
    seeded_as,
    sizes,
)
from autograder.checks.compare import close
from autograder.checks.model import Case, Mistake, Similar, Step
from autograder.i18n import t

from . import reference

# torch's normalisations, as their functions and ATen operations are named (instance norm
# runs native_batch_norm; var_mean is half of a layer norm; local_response_norm divides by
# the root of a mean of squares, and F.normalize by a vector's norm: either is the other half
# once the mean is taken off).
NORMS = {"layer_norm", "batch_norm", "group_norm", "instance_norm", "rms_norm", "var_mean",
         "std_mean", "local_response_norm", "normalize"}

# sinusoidal_positions --------------------------------------------------------------------


def formula(seq_len, d_model):
    """The table computed in float64 straight from the formula, then made float32."""
    p = torch.arange(seq_len, dtype=torch.float64)[:, None]  # (seq_len, 1)
    two_i = torch.arange(d_model, dtype=torch.float64) // 2 * 2  # (d_model,): 0, 0, 2, 2 ...
    angles = p / 10000.0 ** (two_i / d_model)  # (seq_len, d_model)
    even = torch.arange(d_model) % 2 == 0
    return torch.where(even, torch.sin(angles), torch.cos(angles)).float()


def positions_random(gen):
    cases = []
    for seq_len, half in (sizes(gen, 2, low=3, high=12), sizes(gen, 2, low=13, high=40)):
        cases.append(Case(t("{seq_len} positions, d_model = {d_model}", seq_len=seq_len,
                            d_model=2 * half), calling(seq_len, 2 * half)))
    seq_len, other = sizes(gen, 2, low=60, high=100)
    cases.append(Case(t("{seq_len} positions, d_model = {d_model}", seq_len=seq_len,
                        d_model=2), calling(seq_len, 2)))
    (half,) = sizes(gen, 1, low=10, high=32)
    cases.append(Case(t("{seq_len} positions, d_model = {d_model}", seq_len=other,
                        d_model=2 * half), calling(other, 2 * half)))
    return cases


def positions_follow_the_formula(subject, gen):
    """Every entry follows the sine and cosine formula."""
    seq_len, half = sizes(gen, 2, low=2, high=100)
    half = 1 + half % 40
    got = subject(seq_len, 2 * half)
    close(got, formula(seq_len, 2 * half), t(
        "column 2i of row p should be sin(p / 10000^(2i / d_model)) and column 2i + 1 the "
        "cosine of the same angle"))


def odd_width_is_refused(subject, gen):
    """An odd d_model raises a ValueError naming it."""
    seq_len, half = sizes(gen, 2)
    odd = 2 * half + 1
    try:
        subject(seq_len, odd)
    except ValueError as error:
        assert str(odd) in str(error), t(
            "the ValueError for an odd d_model should name the value ({odd})", odd=odd)
        return
    raise AssertionError(t("an odd d_model ({odd}) should raise ValueError", odd=odd))


def wrong_positions(body):
    """A student's sinusoidal_positions that computes the angles right, then `body`."""
    return ("def sinusoidal_positions(seq_len, d_model):\n"
            "    if d_model % 2:\n"
            "        raise ValueError(f'odd d_model: {d_model}')\n"
            "    positions = torch.arange(seq_len, dtype=torch.float32).unsqueeze(1)\n"
            + body)


SINUSOIDAL_POSITIONS = Step(
    name="sinusoidal_positions",
    reference=reference.sinusoidal_positions,
    random_cases=positions_random,
    properties=(positions_follow_the_formula, odd_width_is_refused),
    mistakes=(
        Mistake(
            "sin and cos exchanged",
            "the even columns (0, 2, 4 ...) hold the sines, the odd ones the cosines",
            wrong_positions(
                "    exponents = torch.arange(0, d_model, 2, dtype=torch.float32) / d_model\n"
                "    angles = positions / 10000.0 ** exponents\n"
                "    pe = torch.zeros(seq_len, d_model)\n"
                "    pe[:, 0::2] = torch.cos(angles)\n"
                "    pe[:, 1::2] = torch.sin(angles)\n"
                "    return pe\n"),
        ),
        Mistake(
            "i instead of 2i in the exponent",
            "columns 2i and 2i + 1 share the angle p / 10000^(2i / d_model): the exponent "
            "counts columns (0, 2, 4 ...), not pairs (0, 1, 2 ...)",
            wrong_positions(
                "    exponents = torch.arange(d_model // 2, dtype=torch.float32) / d_model\n"
                "    angles = positions / 10000.0 ** exponents\n"
                "    pe = torch.zeros(seq_len, d_model)\n"
                "    pe[:, 0::2] = torch.sin(angles)\n"
                "    pe[:, 1::2] = torch.cos(angles)\n"
                "    return pe\n"),
        ),
        Mistake(
            "sines and cosines in two halves",
            "sines and cosines are interleaved: column 2i holds a sine and column 2i + 1, right "
            "beside it, the cosine of the same angle; they are not two blocks side by side",
            wrong_positions(
                "    exponents = torch.arange(0, d_model, 2, dtype=torch.float32) / d_model\n"
                "    angles = positions / 10000.0 ** exponents\n"
                "    return torch.cat([torch.sin(angles), torch.cos(angles)], dim=-1)\n"),
        ),
        Mistake(
            "one exponent for every column",
            "the angle of columns 2i and 2i + 1 is p / 10000^(2i / d_model): the frequency falls "
            "from one pair of columns to the next",
            wrong_positions(
                "    exponents = torch.arange(0, d_model, dtype=torch.float32) / d_model\n"
                "    angles = positions / 10000.0 ** exponents\n"
                "    pe = torch.sin(angles)\n"
                "    pe[:, 1::2] = torch.cos(angles[:, 1::2])\n"
                "    return pe\n"),
        ),
    ),
)

# layer_norm ------------------------------------------------------------------------------


def norm_inputs(gen, leading, d, scale=1.0, shift=True):
    """x (*leading, d), its rows spread by `scale` around a random level of their own (none
    with shift=False), and random gamma and beta (d,)."""
    level = randn(gen, *leading, 1) if shift else torch.zeros(*leading, 1)
    return scale * randn(gen, *leading, d) + level, randn(gen, d), randn(gen, d)


def layer_norm_random(gen):
    cases = []
    batch, seq, d = sizes(gen, 3, low=2, high=9)
    cases.append(Case(t("random case, x of shape {shape}", shape=(seq, d)),
                      calling(*norm_inputs(gen, (seq,), d, scale=3.0))))
    cases.append(Case(t("random case, x of shape {shape}", shape=(batch, seq, d)),
                      calling(*norm_inputs(gen, (batch, seq), d))))
    (d,) = sizes(gen, 1, low=2, high=9)
    cases.append(Case(t("one vector, x of shape {shape}", shape=(d,)),
                      calling(*norm_inputs(gen, (), d))))
    heads, batch, seq, d = sizes(gen, 4, low=2, high=7)
    cases.append(Case(t("random case, x of shape {shape}", shape=(batch, heads, seq, d)),
                      calling(*norm_inputs(gen, (batch, heads, seq), d))))
    seq, d = sizes(gen, 2, low=2, high=9)
    x, gamma, beta = norm_inputs(gen, (seq,), d, scale=1e-3, shift=False)
    cases.append(Case(t("rows of tiny spread (variance near eps), x of shape {shape}",
                        shape=(seq, d)), calling(x, gamma, beta)))
    seq, d = sizes(gen, 2, low=2, high=9)
    cases.append(Case(t("eps = {eps}, x of shape {shape}", eps=0.5, shape=(seq, d)),
                      calling(*norm_inputs(gen, (seq,), d, scale=0.5), eps=0.5)))
    return cases


def layer_norm_equals_torch(subject, gen):
    """The result matches torch's layer_norm over the last dimension."""
    batch, seq, d = sizes(gen, 3)
    for eps in (1e-5, 0.1):
        x, gamma, beta = norm_inputs(gen, (batch, seq), d, scale=2.0)
        close(subject(x.clone(), gamma, beta, eps=eps),
              F.layer_norm(x, (d,), gamma, beta, eps=eps),
              t("layer_norm should equal torch.nn.functional.layer_norm over the last dim "
                "(eps = {eps})", eps=eps))


def rows_are_standardised(subject, gen):
    """With gamma 1 and beta 0, every row has mean 0 and variance 1."""
    seq, d = sizes(gen, 2, low=3)
    x = 5 * randn(gen, seq, d) + 2
    got = subject(x.clone(), torch.ones(d), torch.zeros(d)).detach()
    close(got.mean(dim=-1), torch.zeros(seq), t(
        "with gamma = 1 and beta = 0, every row should have mean 0"))
    close(got.pow(2).mean(dim=-1), x.var(dim=-1, unbiased=False) / (
        x.var(dim=-1, unbiased=False) + 1e-5), t(
        "with gamma = 1 and beta = 0, every row should have (biased) variance 1, up to eps"))


def constant_rows_give_beta(subject, gen):
    """A row of equal entries gives beta."""
    seq, d = sizes(gen, 2)
    # Levels in quarters (-4 to 4): a row's mean is then its level exactly. A level drawn
    # from randn was not always (the mean of d float32 copies rounds), and the rounding,
    # divided by sqrt(eps), failed a correct layer_norm in about 1 grading of 400.
    levels = torch.randint(-16, 17, (seq, 1), generator=gen) / 4  # (seq, 1)
    x = levels.expand(seq, d).contiguous()  # (seq, d)
    gamma, beta = randn(gen, d), randn(gen, d)
    close(subject(x, gamma, beta), beta.expand(seq, d), t(
        "a row whose entries are all equal should give beta (no division by zero)"))


# Rows far from zero with a spread under 1, d = 8: every entry, row sum and centred entry is
# exact in float32 (offsets in eighths), so a two-pass variance (the mean of (x - mean)^2,
# torch.var, x.std, ...) gives the float64 result to the last bit. E[x^2] - E[x]^2 in float32
# subtracts two numbers near 1e6 (1e8 in the last row), where a float32 step is 0.0625 (8),
# and loses the variance (0.33, 0.64, 0.33). Random rows near zero decided that formula on
# about 1 draw in 50; this case decides it for every student.
FAR_FROM_ZERO_LEVELS = (1000.0, -1000.0, 10000.0)
FAR_FROM_ZERO_OFFSETS = (
    (-0.875, -0.625, -0.375, -0.125, 0.125, 0.375, 0.625, 0.875),
    (0.625, -1.375, 0.125, 0.875, -0.125, 0.875, -1.125, 0.125),
    (-0.125, 0.375, -0.625, 0.875, 0.125, -0.375, 0.625, -0.875),
)


def layer_norm_fixed():
    x = torch.tensor([[level + offset for offset in offsets]
                      for level, offsets in zip(FAR_FROM_ZERO_LEVELS, FAR_FROM_ZERO_OFFSETS,
                                                strict=True)])  # (3, 8)
    gamma = torch.linspace(0.5, 2.0, 8)
    beta = torch.linspace(-1.0, 1.0, 8)
    return [Case(t("rows far from zero with a small spread (means {means}, standard deviation "
                   "under 1), x of shape {shape}", means="1000, -1000, 10000", shape=(3, 8)),
                 calling(x, gamma, beta))]


LAYER_NORM_CODE = inspect.getsource(reference.layer_norm)


def norm_variant(*replacements):
    return rewritten(LAYER_NORM_CODE, *replacements, what="the reference layer_norm")


LAYER_NORM = Step(
    name="layer_norm",
    reference=reference.layer_norm,
    random_cases=layer_norm_random,
    fixed_cases=layer_norm_fixed,
    properties=(layer_norm_equals_torch, rows_are_standardised, constant_rows_give_beta),
    rules=(forbids_ops("no built-in layer norm", NORMS,
                       "this step is about writing layer normalisation yourself"),),
    mistakes=(
        Mistake(
            "unbiased variance",
            "layer norm divides the squared deviations by d (the biased variance); "
            "torch.var divides by d - 1 unless told unbiased=False",
            norm_variant(("((x - mean) ** 2).mean(dim=-1, keepdim=True)",
                          "x.var(dim=-1, keepdim=True)")),
        ),
        Mistake(
            "eps outside the square root",
            "eps is added to the variance, under the square root: sqrt(var + eps)",
            norm_variant(("torch.sqrt(variance + eps)", "(torch.sqrt(variance) + eps)")),
        ),
        Mistake(
            "no gamma and beta",
            "after normalising, scale by gamma and shift by beta: x_hat * gamma + beta",
            norm_variant((" * gamma + beta", "")),
        ),
        Mistake(
            "gamma and beta exchanged",
            "gamma multiplies the normalised x and beta is added: x_hat * gamma + beta",
            norm_variant((" * gamma + beta", " * beta + gamma")),
        ),
        Mistake(
            "statistics over the wrong dim",
            "each row (the last dim, one vector of d features) is normalised on its own mean "
            "and variance",
            norm_variant(("x.mean(dim=-1, keepdim=True)", "x.mean(dim=0, keepdim=True)"),
                         (".mean(dim=-1, keepdim=True)  # (..., 1), divided by d",
                          ".mean(dim=0, keepdim=True)")),
        ),
        Mistake(
            "variance as E[x²] − E[x]² in float32",
            "E[x²] − E[x]² loses the variance to rounding when the mean is large: float32 "
            "keeps too few digits of two large, nearly equal numbers; subtract the mean "
            "first and take the mean of (x − mean)²",
            norm_variant(("((x - mean) ** 2).mean(dim=-1, keepdim=True)",
                          "(x * x).mean(dim=-1, keepdim=True) - mean * mean")),
        ),
    ),
)

# feed_forward ----------------------------------------------------------------------------


def ffn_inputs(gen, leading, d_model, d_ff):
    return (randn(gen, *leading, d_model), randn(gen, d_model, d_ff), randn(gen, d_ff),
            randn(gen, d_ff, d_model), randn(gen, d_model))


def feed_forward_random(gen):
    cases = []
    seq, d_model, d_ff = sizes(gen, 3)
    cases.append(Case(t("random case, x of shape {shape}, d_ff = {d_ff}", shape=(seq, d_model),
                        d_ff=d_ff), calling(*ffn_inputs(gen, (seq,), d_model, d_ff))))
    batch, seq, d_model, d_ff = sizes(gen, 4)
    cases.append(Case(t("random case, x of shape {shape}, d_ff = {d_ff}",
                        shape=(batch, seq, d_model), d_ff=d_ff),
                      calling(*ffn_inputs(gen, (batch, seq), d_model, d_ff))))
    d_model, d_ff = sizes(gen, 2)
    cases.append(Case(t("one vector, x of shape {shape}, d_ff = {d_ff}", shape=(d_model,),
                        d_ff=d_ff), calling(*ffn_inputs(gen, (), d_model, d_ff))))
    return cases


def feed_forward_equals_linears(subject, gen):
    """The network matches linear2(relu(linear1(x)))."""
    batch, seq, d_model, d_ff = sizes(gen, 4)
    x, W1, b1, W2, b2 = ffn_inputs(gen, (batch, seq), d_model, d_ff)
    want = F.linear(F.relu(F.linear(x, W1.T, b1)), W2.T, b2)
    close(subject(x.clone(), W1, b1, W2, b2), want, t(
        "feed_forward should equal linear2(relu(linear1(x))) with W1 and W2 as the (d_in, "
        "d_out) weights"))


def positions_do_not_mix(subject, gen):
    """Each position goes through the network on its own."""
    seq, d_model, d_ff = sizes(gen, 3)
    x, W1, b1, W2, b2 = ffn_inputs(gen, (seq,), d_model, d_ff)
    whole = subject(x.clone(), W1, b1, W2, b2)
    close(subject(x[-1:].clone(), W1, b1, W2, b2), whole[-1:], t(
        "each position goes through the network on its own: the last row alone should give "
        "the last row of the output"))


def ffn_variant(hidden, output):
    return ("def feed_forward(x, W1, b1, W2, b2):\n"
            f"    hidden = {hidden}\n"
            f"    return {output}\n")


FEED_FORWARD = Step(
    name="feed_forward",
    reference=reference.feed_forward,
    random_cases=feed_forward_random,
    properties=(feed_forward_equals_linears, positions_do_not_mix),
    mistakes=(
        Mistake("no relu",
                "the hidden layer goes through relu before W2: without it the two layers are "
                "one linear map",
                ffn_variant("x @ W1 + b1", "hidden @ W2 + b2")),
        Mistake("relu after W2 instead of after W1",
                "relu acts on the hidden layer, relu(x @ W1 + b1); the output, hidden @ W2 + "
                "b2, is not clipped",
                ffn_variant("x @ W1 + b1", "torch.relu(hidden @ W2 + b2)")),
        Mistake("b1 added after the relu",
                "the first bias goes inside the relu: relu(x @ W1 + b1)",
                ffn_variant("torch.relu(x @ W1) + b1", "hidden @ W2 + b2")),
    ),
)

# TransformerBlock ------------------------------------------------------------------------


def torch_layer(seed, d_model, num_heads, d_ff):
    """torch's pre-norm encoder layer in eval mode under torch.manual_seed(seed), every
    parameter redrawn so that the norms' gamma and beta and every bias count; the global random
    state is restored."""
    with seeded_as(seed):
        layer = nn.TransformerEncoderLayer(d_model, num_heads, d_ff, dropout=0.0,
                                           batch_first=True, norm_first=True).eval()
        with torch.no_grad():
            for parameter in layer.parameters():
                parameter.normal_(0.0, 0.5)
    return layer


def copied(seed, d_model, num_heads, d_ff, x, attn_mask=None):
    """A case's run: copy a seeded torch layer with cls.from_torch and run the copy on x."""

    def run(cls):
        block = cls.from_torch(torch_layer(seed, d_model, num_heads, d_ff))
        return block(x.clone(), attn_mask=attn_mask)

    return run


def block_sizes(gen):
    """N, L, d_ff distinct; num_heads >= 2 heads of head_dim >= 2; E = num_heads * head_dim."""
    N, L, d_ff = sizes(gen, 3, low=2, high=9)
    heads, head_dim = (2 + int(i) for i in torch.randint(3, (2,), generator=gen))
    return N, L, heads * head_dim, heads, d_ff


def random_mask(gen, L):
    """A bool (L, L) mask, True = may not attend, with no query masked whole."""
    mask = torch.rand(L, L, generator=gen) < 0.5
    mask[torch.arange(L), torch.randint(L, (L,), generator=gen)] = False
    return mask


def causal(L):
    return torch.ones(L, L, dtype=torch.bool).triu(diagonal=1)


def output_shape(d_model, num_heads, d_ff, x):
    """A case's run: the shape of what a new cls(d_model, num_heads, d_ff) makes of x."""

    def run(cls):
        return tuple(cls(d_model, num_heads, d_ff)(x.clone()).shape)

    return run


def block_random(gen):
    N, L, E, heads, d_ff = block_sizes(gen)
    cases = [Case(t("a new TransformerBlock({E}, {heads}, {d_ff}) on x of shape {shape}: the "
                    "output's shape", E=E, heads=heads, d_ff=d_ff, shape=(N, L, E)),
                  output_shape(E, heads, d_ff, randn(gen, N, L, E)))]
    for kind, named in (("none", t("no mask")), ("random", t("random mask")),
                        ("causal", t("causal mask"))):
        N, L, E, heads, d_ff = block_sizes(gen)
        x = randn(gen, N, L, E)
        mask = {"none": None, "random": random_mask(gen, L), "causal": causal(L)}[kind]
        cases.append(Case(t("a copy of TransformerEncoderLayer({E}, {heads}, {d_ff}), {kind}, "
                            "x of shape {shape}", E=E, heads=heads, d_ff=d_ff, kind=named,
                            shape=(N, L, E)),
                          copied(random_seed(gen), E, heads, d_ff, x, mask)))
    return cases


def block_equals_torch(subject, gen):
    """A copy of torch's TransformerEncoderLayer gives torch's output."""
    N, L, E, heads, d_ff = block_sizes(gen)
    layer = torch_layer(random_seed(gen), E, heads, d_ff)
    x, mask = randn(gen, N, L, E), random_mask(gen, L)
    block = subject.from_torch(layer)
    for attn_mask in (None, mask):
        close(block(x.clone(), attn_mask=attn_mask), layer(x, src_mask=attn_mask).detach(), t(
            "a copy made by from_torch(layer) should give the output of the layer in eval mode "
            "(dropout 0, batch_first, norm_first), with and without a bool attn_mask"))


def causal_block_ignores_the_future(subject, gen):
    """Under a causal mask, no output depends on later positions."""
    N, L, E, heads, d_ff = block_sizes(gen)
    block = subject.from_torch(torch_layer(random_seed(gen), E, heads, d_ff))
    x = randn(gen, N, L, E)
    changed = x.clone()
    changed[:, -1] = randn(gen, N, E)
    mask = causal(L)
    close(block(changed, attn_mask=mask)[:, :-1], block(x.clone(), attn_mask=mask)[:, :-1]
          .detach(), t("under a causal mask, changing the last position should change no "
                       "output before it"))


def sequences_do_not_mix(subject, gen):
    """The sequences of a batch do not affect each other."""
    N, L, E, heads, d_ff = block_sizes(gen)
    block = subject.from_torch(torch_layer(random_seed(gen), E, heads, d_ff))
    x = randn(gen, N, L, E)
    close(block(x[-1:].clone())[0], block(x.clone())[-1].detach(), t(
        "the sequences of a batch are independent: the last sequence alone should give the "
        "last output of the batch"))


def positions_permute(subject, gen):
    """Without a mask, reordering the positions reorders the output the same way."""
    N, L, E, heads, d_ff = block_sizes(gen)
    block = subject.from_torch(torch_layer(random_seed(gen), E, heads, d_ff))
    x = randn(gen, N, L, E)
    order = torch.randperm(L, generator=gen)
    close(block(x[:, order].clone()), block(x.clone())[:, order].detach(), t(
        "without a mask, reordering the positions of x should reorder the output in the same "
        "way (the block itself knows no positions)"))


BLOCK_SOURCE = inspect.getsource(reference.TransformerBlock)


def block_variant(*replacements):
    """The reference block's code with some lines written wrongly: a whole student class."""
    return rewritten(BLOCK_SOURCE, *replacements, what="the reference TransformerBlock")


SPLIT = ".reshape(N, L, self.num_heads, head_dim).transpose(1, 2)"

TRANSFORMER_BLOCK = Step(
    name="TransformerBlock",
    reference=reference.TransformerBlock,
    random_cases=block_random,
    # A new block's output shape is block_random's first case: a property drawing the same
    # (a new block on fresh sizes, its shape) cost a forward of three calls back to the
    # grader's layer_norm and feed_forward and told nothing more.
    properties=(block_equals_torch, causal_block_ignores_the_future, sequences_do_not_mix,
                positions_permute),
    uses=("layer_norm", "feed_forward"),
    rules=(
        forbids_ops(
            "no built-in attention or encoder layer",
            {"multi_head_attention", "_transformer_encoder", *NORMS},
            "write the block from your own layer_norm, feed_forward and "
            "F.scaled_dot_product_attention"),
        enters("calls your layer_norm", "layer_norm",
               "both norms of the block are your layer_norm"),
        enters("calls your feed_forward", "feed_forward",
               "the block's network is your feed_forward"),
        requires_ops("calls F.scaled_dot_product_attention", {"scaled_dot_product"},
                       "the heads are run by F.scaled_dot_product_attention"),
    ),
    mistakes=(
        Mistake(
            "post-norm instead of pre-norm",
            "norm_first: normalise the input of each sublayer, x + attention(layer_norm(x)), "
            "not the sum after it, layer_norm(x + attention(x))",
            block_variant(
                ("h = x + self.attention(layer_norm(x, self.gamma1, self.beta1), attn_mask)",
                 "h = layer_norm(x + self.attention(x, attn_mask), self.gamma1, self.beta1)"),
                ("ffn = feed_forward(layer_norm(h, self.gamma2, self.beta2), self.W1",
                 "ffn = feed_forward(h, self.W1"),
                ("return h + ffn", "return layer_norm(h + ffn, self.gamma2, self.beta2)")),
        ),
        Mistake(
            "attention's residual missing",
            "add the attention's output to its input: h = x + attention(layer_norm(x))",
            block_variant(("h = x + self.attention(", "h = self.attention(")),
        ),
        Mistake(
            "feed-forward's residual missing",
            "add the network's output to its input: h + feed_forward(layer_norm(h))",
            block_variant(("return h + ffn", "return ffn")),
        ),
        Mistake(
            "mask sense inverted",
            "our attn_mask is True where a query may NOT attend; "
            "F.scaled_dot_product_attention's boolean attn_mask is True where it may: pass "
            "~attn_mask",
            block_variant(("else ~attn_mask", "else attn_mask")),
        ),
        Mistake(
            "heads merged by reshape without transposing",
            "the heads' outputs are (N, h, L, head_dim): bring L before h (transpose(1, 2)) "
            "before reshaping to (N, L, E)",
            block_variant(("heads.transpose(1, 2).reshape(N, L, E)", "heads.reshape(N, L, E)")),
        ),
        Mistake(
            "heads split by reshape without transposing",
            "cut each row's E features into h chunks, (N, L, h, head_dim), then move h before L "
            "(transpose(1, 2)); a reshape straight to (N, h, L, head_dim) mixes positions",
            block_variant((SPLIT, ".reshape(N, self.num_heads, L, head_dim)")),
        ),
        Mistake(
            "scaled by sqrt(d_model) instead of sqrt(head_dim)",
            "each head works in head_dim = d_model / num_heads dimensions; its scores are "
            "scaled by 1/sqrt(head_dim), which F.scaled_dot_product_attention does by itself",
            block_variant(("F.scaled_dot_product_attention(q, k, v, attn_mask=allowed)",
                           "F.scaled_dot_product_attention(q, k, v, attn_mask=allowed, "
                           "scale=1 / math.sqrt(E))")),
        ),
        Mistake(
            "one norm's gamma and beta used twice",
            "the block has two norms with their own gamma and beta: norm1 before the attention, "
            "norm2 before the feed-forward network",
            block_variant(("layer_norm(h, self.gamma2, self.beta2)",
                           "layer_norm(h, self.gamma1, self.beta1)")),
        ),
    ),
)

STEPS = (SINUSOIDAL_POSITIONS, LAYER_NORM, FEED_FORWARD, TRANSFORMER_BLOCK)

# When the similarity report flags a pair (bench/similarity_calibration.py 08_transformer_block):
# honest pairs reach 0.300 and 541 characters; every copy of one disguise has 0.865 or
# more and 1,350 characters or more.
SIMILARITY = Similar(share=0.58, characters=950)
