"""How the grader reads the messages of a sandboxed kernel: jupyter_client's Session, but a
message's headers come back as the JSON they are.

jupyter_client turns every string of a message's header and parent header that looks like an
ISO 8601 date into a datetime (dateutil's parser, on two dates a message); the grader never
reads those dates, and a graded notebook is about 200 messages: parsing them took about an
eighth of the grader's CPU a notebook (0.23 -> 0.20 s). Everything else is the library's: with
a key, the signature is checked as it checks it (an unsigned, forged or replayed message is
refused; without one, as the kit's kernels are started, nothing is signed, as with the
library), the parts are unpacked by the session's unpacker, and the message is adapted to the
current protocol version.
"""

from __future__ import annotations

from hmac import compare_digest

from jupyter_client.adapter import adapt
from jupyter_client.session import Session

PARTS = 5  # signature, header, parent header, metadata, content; then the buffers


class GraderSession(Session):
    """A Session whose messages keep their header dates as ISO 8601 strings."""

    def deserialize(self, msg_list, content=True, copy=True):
        if not copy:  # zmq Frames: every part copied out as bytes
            msg_list = [bytes(part.bytes) for part in msg_list[:PARTS]] + [
                memoryview(bytes(part.bytes)) for part in msg_list[PARTS:]]
        if self.auth is not None:
            self.check_signature(msg_list, remember=content)
        if len(msg_list) < PARTS:
            raise TypeError(f"malformed message, must have at least {PARTS} elements")
        header = self.unpack(msg_list[1])
        return adapt({
            "header": header, "msg_id": header["msg_id"], "msg_type": header["msg_type"],
            "parent_header": self.unpack(msg_list[2]), "metadata": self.unpack(msg_list[3]),
            "content": self.unpack(msg_list[4]) if content else msg_list[4],
            "buffers": [memoryview(part) for part in msg_list[PARTS:]],
        })

    def check_signature(self, msg_list, remember):
        """Refuse a message that is unsigned, signed with another key, or seen before (a
        replay); `remember` its signature as seen (as the library does when it unpacks the
        content, not when it only peeks)."""
        signature = msg_list[0]
        if not signature:
            raise ValueError("Unsigned Message")
        if signature in self.digest_history:
            raise ValueError(f"Duplicate Signature: {signature!r}")
        if remember:
            self._add_digest(signature)
        if not compare_digest(signature, self.sign(msg_list[1:PARTS])):
            raise ValueError(f"Invalid Signature: {signature!r}")
