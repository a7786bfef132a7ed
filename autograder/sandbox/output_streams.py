"""A kernel's output streams: a flush with nothing to send returns at once.

A kernel's sys.stdout and sys.stderr (ipykernel's OutStream) keep what a cell prints and send
it from the kernel's IOPub thread. Their flush hands that thread two jobs (send the text, then
set an event) and waits for the event, whether the stream holds text or not: two wake-ups of
the thread and two of the kernel's main thread. ipykernel flushes both streams after every
cell and before every input() (the grader's agent reads each of its requests with one), so a
cell that printed nothing paid four round trips: 30 context switches and about 0.5 ms of the
1.7 ms of CPU a trivial cell costs its kernel.

Here, imported by the template (zygote.py) before it forks: a stream that holds no text (no
write since its last flush, and no echo stream to flush) answers a flush at once; one that
holds text flushes as ipykernel does. Nothing a cell printed is sent later than before: the
text a flush would have sent was sent by an earlier flush, and the kernel's messages leave its
IOPub thread in the order they were handed to it, so the text still comes before the status
that says the kernel is idle, which is what the grader waits for.
"""

import ipykernel.iostream

_flush = ipykernel.iostream.OutStream.flush  # ipykernel's own


def flush(stream):
    """ipykernel's OutStream.flush, skipped when the stream holds nothing to send."""
    with stream._buffer_lock:
        empty = not stream._buffers
    if not (empty and stream.echo is None):
        _flush(stream)


def install():
    ipykernel.iostream.OutStream.flush = flush
