"""Does the grader's Session read a kernel's message as jupyter_client reads it, but for the
header dates, which stay the strings the kernel sent; and does it refuse what jupyter_client
refuses (an unsigned, forged or replayed message)?"""

from __future__ import annotations

import uuid

import pytest
import zmq
from jupyter_client.session import Session

from autograder.sandbox.grader_session import GraderSession

KEY = uuid.uuid4().hex.encode()


def wire(message_type="execute_result", content=None, buffers=(), key=KEY):
    """The parts of one message as a kernel sends them, from the signature on."""
    sender = Session(key=key)
    parent = sender.msg("execute_request", content={"code": "1"})
    message = sender.msg(message_type, content=content or {"data": {"text/plain": "1"},
                                                           "metadata": {}, "execution_count": 1},
                         parent=parent)
    parts = sender.serialize(message)  # the buffers travel after the content
    return parts[parts.index(b"<IDS|MSG>") + 1:] + list(buffers)


def dated(message):
    """The message with its header dates as the strings on the wire."""
    return {**message, "header": {**message["header"], "date": message["header"]["date"]
                                  .isoformat().replace("+00:00", "Z")},
            "parent_header": {**message["parent_header"],
                              "date": message["parent_header"]["date"]
                              .isoformat().replace("+00:00", "Z")}}


@pytest.mark.parametrize("content", [True, False])
def test_a_message_reads_as_the_library_reads_it_but_for_its_dates(content):
    parts = wire(buffers=[b"\x00\x01", b"raw"])
    ours = GraderSession(key=KEY).deserialize(list(parts), content=content)
    library = Session(key=KEY).deserialize(list(parts), content=content)
    assert isinstance(ours["header"]["date"], str)
    assert not isinstance(library["header"]["date"], str)
    assert [bytes(b) for b in ours.pop("buffers")] == [b"\x00\x01", b"raw"]
    library.pop("buffers")
    expected = dated(library)
    ours["header"]["date"] = ours["header"]["date"].replace("+00:00", "Z")
    ours["parent_header"]["date"] = ours["parent_header"]["date"].replace("+00:00", "Z")
    assert ours == expected


def test_frames_read_as_bytes():
    """A message received without copying (zmq Frames) reads as the same message."""
    parts = wire(buffers=[b"data"])
    ours = GraderSession(key=KEY).deserialize([zmq.Frame(p) for p in parts], copy=False)
    assert ours["content"]["execution_count"] == 1
    assert [bytes(b) for b in ours["buffers"]] == [b"data"]


def test_a_message_signed_with_another_key_is_refused():
    with pytest.raises(ValueError, match="Invalid Signature"):
        GraderSession(key=KEY).deserialize(wire(key=b"another key"))


def test_a_changed_message_is_refused():
    parts = wire()
    parts[4] = parts[4].replace(b'"1"', b'"2"')
    with pytest.raises(ValueError, match="Invalid Signature"):
        GraderSession(key=KEY).deserialize(parts)


def test_an_unsigned_message_is_refused():
    parts = wire()
    parts[0] = b""
    with pytest.raises(ValueError, match="Unsigned"):
        GraderSession(key=KEY).deserialize(parts)


def test_a_replayed_message_is_refused_once_read_whole():
    """A message read with its content is remembered and refused the second time; one only
    peeked at (content=False) is not, as with jupyter_client."""
    session, parts = GraderSession(key=KEY), wire()
    session.deserialize(list(parts), content=False)
    session.deserialize(list(parts))
    with pytest.raises(ValueError, match="Duplicate"):
        session.deserialize(list(parts))


def test_the_kernel_client_reads_with_it(kernel):
    """A sandboxed kernel's replies come through the grader's Session."""
    assert isinstance(kernel.client.session, GraderSession)
    outputs, status = kernel.execute("print('hi')", timeout=20)
    assert status == "ok" and outputs[0]["text"] == "hi\n"
