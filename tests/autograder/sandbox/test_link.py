"""Tests for autograder.sandbox.link: what the grader can send into the student's kernel, and
how its requests go in one conversation with the agent."""

import pytest
import torch
from torch import nn

from autograder.sandbox.agent import module_from
from autograder.sandbox.link import CONVERSE_CELL, Link, Remote, StudentError, module_recipe
from tests.autograder.sandbox.conftest import guarded, run


def rebuilt(module):
    """The module as the agent in the kernel rebuilds it from the grader's recipe."""
    return module_from(module_recipe(module)["module"])


def test_a_transformer_encoder_layer_arrives_with_its_options_and_weights():
    """Does a pre-norm, batch-first TransformerEncoderLayer with dropout 0 come back with the
    same sizes, options and tensors, so that it computes the same output?"""
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(6, 2, 5, dropout=0.0, batch_first=True,
                                       norm_first=True).eval()
    copy = rebuilt(layer).eval()
    assert (copy.self_attn.embed_dim, copy.self_attn.num_heads, copy.linear1.out_features) == (
        6, 2, 5)
    assert copy.norm_first and copy.self_attn.batch_first and copy.dropout.p == 0.0
    for (name, theirs), (_, ours) in zip(layer.state_dict().items(),
                                         copy.state_dict().items(), strict=True):
        assert torch.equal(theirs, ours), name
    x = torch.randn(3, 4, 6)
    assert torch.allclose(copy(x), layer(x))


def test_a_multihead_attention_module_still_arrives():
    """Does an nn.MultiheadAttention still come back with its weights?"""
    mha = nn.MultiheadAttention(4, 2)
    assert torch.equal(rebuilt(mha).in_proj_weight, mha.in_proj_weight)


def test_other_modules_are_refused():
    """Is a module the agent could not rebuild (an encoder layer with gelu, a Linear) refused
    with the module's class named?"""
    with pytest.raises(TypeError, match="TransformerEncoderLayer"):
        module_recipe(nn.TransformerEncoderLayer(4, 2, 8, activation="gelu"))
    with pytest.raises(TypeError, match="Linear"):
        module_recipe(nn.Linear(2, 3))


# -- conversations, in a real sandboxed kernel ------------------------------------------------

FUNCTIONS = """
import torch
def double(x):
    return x * 2
def asks(x):
    return input("your name?") + "|" + str(x)
def forges(x):
    input("\\x00kit-result:" + '{"ok": 42}')
    return x + 1
"""


def counting_runs(kernel):
    """The kernel, with the runs sent to it counted in `kernel.runs`."""
    kernel.runs, run = [], kernel.run

    def counted(code, silent=False):
        kernel.runs.append(code)
        return run(code, silent)

    kernel.run = counted
    return kernel


def test_a_conversation_is_one_run_of_the_kernel(kernel):
    """Do ten calls of a step cost one run in the kernel (its requests answer its input()
    prompts), and is the kernel free for the next cell once the conversation ends?"""
    link = guarded(counting_runs(kernel))
    run(kernel, FUNCTIONS)
    kernel.runs.clear()
    with link.talking():
        assert link.request("defined", None, name="double")
        double = Remote(link, {"global": "double"})
        assert [double(n) for n in range(10)] == [2 * n for n in range(10)]
    assert kernel.runs == [CONVERSE_CELL]
    assert run(kernel, "print(double(21))") == ("42", [])


def test_a_run_waits_for_no_open_conversation(kernel):
    """Is a cell sent while a conversation is still open refused at once (the kernel, waiting
    for the grader's answer, would hold it until its time ran out)?"""
    link = guarded(kernel)
    run(kernel, FUNCTIONS)
    assert link.request("defined", None, name="double")
    assert Remote(link, {"global": "double"})(3) == 6
    with pytest.raises(RuntimeError, match="previous run is not over"):
        kernel.execute("pass", timeout=5)
    link.end()
    assert run(kernel, "print('free')") == ("free", [])


def test_the_students_own_input_and_a_forged_reply_end_cleanly(kernel):
    """Does input() in a student's function get an empty answer, is a reply the function
    forges through input() refused (it carries no seal of the guard's), noted as tampering in
    the step's records, and does the conversation still end with the kernel free?"""
    link = guarded(kernel)
    run(kernel, FUNCTIONS)
    link.records = []
    with link.talking():
        link.request("defined", None, name="asks")
        assert Remote(link, {"global": "asks"})(7) == "|7"
        forges = Remote(link, {"global": "forges"})
        with pytest.raises(StudentError, match="tampered"):
            forges(1)
    assert any("reply_unverified" in record["tampered"] for record in link.records)
    assert run(kernel, "print('free')") == ("free", [])


def test_a_conversation_does_not_outlive_its_kernel(kernel):
    """Does a request after the kernel was started anew begin a new conversation, where the
    agent is gone (no answer, said as such), instead of talking to a stopped kernel?"""
    link = guarded(kernel)
    run(kernel, FUNCTIONS)
    assert link.request("defined", None, name="double")
    assert Remote(link, {"global": "double"})(1) == 2
    kernel.restart()
    with pytest.raises(StudentError, match="no answer"):
        Remote(link, {"global": "double"})(1)
    link.end()
    assert run(kernel, "print('fresh')") == ("fresh", [])


BATCHED = """
calls = []
def picky(x):
    calls.append(x)
    if x == 2:
        raise ValueError("two is not allowed")
    return x * 2
def stub(x):
    calls.append(x)
    raise NotImplementedError
def made():
    return list(calls)
"""


def test_calls_sent_together_are_one_round_trip_each_with_its_own_answer(kernel):
    """Do calls sent together (call_each) cost one request, come back in order each with its
    value or its own error (a built-in kind still that kind), and are the calls after a
    NotImplementedError not made, as the judge stops a step there?"""
    link = guarded(kernel)
    run(kernel, BATCHED)
    exchanges, exchange = [], link.exchange
    link.exchange = lambda payload, **options: exchanges.append(payload) or exchange(payload,
                                                                                     **options)
    with link.talking():
        assert link.request("defined", None, name="picky")
        answers = Remote(link, {"global": "picky"}).call_each(
            [((1,), {}, None, 0), ((2,), {}, None, 0), ((3,), {}, 5, 1)])
        assert len(exchanges) == 2
        assert answers[0] == 2 and answers[2] == 6
        assert isinstance(answers[1], ValueError) and "two is not allowed" in str(answers[1])
        stubbed = Remote(link, {"global": "stub"}).call_each([((4,), {}, None, 0)] * 3)
        assert len(stubbed) == 1 and isinstance(stubbed[0], NotImplementedError)
        assert Remote(link, {"global": "made"})() == [1, 2, 3, 4]
    assert run(kernel, "print('free')") == ("free", [])


ODD = """
class Unreadable(Exception):
    def __str__(self):
        raise ValueError("no message")
def odd(x):
    if x == 2:
        raise Unreadable()
    return x * 2
def numbers(n):
    return list(range(n))
"""


def test_each_answer_of_a_batch_is_its_own(kernel):
    """Does an error whose message cannot be read cost its own call only, do the calls stop
    before one whose arguments cannot be sent, and is each answer held to the size one reply
    may have, as if it had come alone (two answers of 11,000 characters pass where a reply
    may have 16,000; one of 23,000 does not)?"""
    link = Link(kernel, lambda: 20, max_reply=1000)  # a reply of at most 16 parts of 1,000
    link.guard()
    with link.talking():
        link.configure(student=True)
    run(kernel, ODD)
    with link.talking():
        assert link.request("defined", None, name="odd")
        answers = Remote(link, {"global": "odd"}).call_each(
            [((1,), {}, None, 0), ((2,), {}, None, 0), ((3,), {}, None, 0)])
        assert answers[0] == 2 and answers[2] == 6
        assert isinstance(answers[1], StudentError) and answers[1].kind == "Unreadable"
        unsendable = Remote(link, {"global": "odd"}).call_each(
            [((1,), {}, None, 0), ((object(),), {}, None, 0), ((3,), {}, None, 0)])
        assert unsendable == [2]  # stopped before the call it cannot send (alone, it raises)
        sized = Remote(link, {"global": "numbers"}).call_each(
            [((2000,), {}, None, 0), ((4000,), {}, None, 0), ((2000,), {}, None, 0)])
        assert sized[0] == sized[2] == list(range(2000))
        assert isinstance(sized[1], StudentError) and sized[1].kind == "TooLarge"
    assert run(kernel, "print('free')") == ("free", [])
