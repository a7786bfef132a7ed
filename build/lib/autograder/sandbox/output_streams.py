"""A kernel's output streams: a flush with nothing to send returns at once, and one with text
still on its way from a file descriptor waits for it.

A kernel's sys.stdout and sys.stderr (ipykernel's OutStream) keep what a cell prints and send
it from the kernel's IOPub thread. Their flush hands that thread two jobs (send the text, then
set an event) and waits for the event, whether the stream holds text or not: two wake-ups of
the thread and two of the kernel's main thread. ipykernel flushes both streams four times a
cell (twice as the cell ends, twice after each message) and twice before every input()
prompt, and the grader's agent reads each of its requests with one (some 25 a notebook): most
of those round trips sent nothing, about a tenth of a kernel's main thread's CPU.

What a cell writes to file descriptor 1 or 2 (os.write, a shell command, C code) goes through
a pipe that a thread of the stream reads, then writes to the stream. A flush that finds the
stream empty while that text is still in the pipe, or read but not yet written, would let the
cell end without it: so the thread here marks each pass (read, then write) and a flush waits,
for a short while, until the pipe is empty and no pass is under way. ipykernel's own flush
has that race (its 0.5 ms pause as a cell ends makes it rare): here a flush that sends,
sends what the pipe held too.

A flush that finds the buffers empty must also know that text the IOPub thread took from
them (its timer flushes every 0.2 s) is already queued to be sent: that thread takes and
queues it with the buffers' lock held, so the flush, which reads the buffers under that lock,
sees either the text or the queue holding it.

Here, imported by the template (zygote.py) before it forks: a flush of a stream that holds no
text (nothing in its buffers, no echo stream, nothing in or passing through its pipe) returns
at once; every other flush waits for the pipe (while a thread still reads it), then is
ipykernel's.
"""

import fcntl
import os
import select
import struct
import sys
import termios
import threading
import time

import ipykernel.iostream

_flush = ipykernel.iostream.OutStream.flush  # ipykernel's own
_own_flush = ipykernel.iostream.OutStream._flush
PIPE_WAIT = 0.05  # seconds a flush waits at most for the text in its pipe to be read


def watch_pipe(stream):
    """ipykernel's OutStream._watch_pipe_fd (read the pipe, write what comes to the stream and
    to the original file descriptor), with each pass marked while it runs: it begins once
    the pipe has text, before the read, and ends once the text is in the stream."""
    if stream._fid is None:
        return
    poller = select.poll()
    poller.register(stream._fid, select.POLLIN)
    try:
        while True:
            poller.poll()
            stream.kit_passing = True
            try:
                data = os.read(stream._fid, ipykernel.iostream.PIPE_BUFFER_SIZE)
                if not (data and stream._should_watch):
                    return  # the pipe closed, or close() woke this thread to end it
                stream.write(data.decode(errors="replace"))
                os.write(stream._original_stdstream_copy, data)  # fails once a cell closed it
            finally:
                stream.kit_passing = False
    except Exception:  # noqa: BLE001 - kept for close() to print, as ipykernel does
        stream._exc = sys.exc_info()


def unread(fd):
    """Bytes waiting in a pipe."""
    return struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"))[0]


def pipe_settled(stream, wait):
    """Whether nothing written to the stream's file descriptor is still in its pipe or being
    passed to the stream, waiting up to `wait` seconds for it to be. The pipe is read first:
    text that left it was read by a pass that had already begun."""
    watcher = getattr(stream, "watch_fd_thread", None)
    if not stream._should_watch or watcher is None or not watcher.is_alive():
        return True  # no thread reads the pipe (any more): nothing to wait for
    deadline = None
    while unread(stream._fid) or getattr(stream, "kit_passing", False):
        now = time.monotonic()
        deadline = deadline or now + wait
        if now >= deadline:
            return False
        time.sleep(0.0001)
    return True


def locked_flush(stream):
    """ipykernel's OutStream._flush (the buffers' text taken, then handed to the IOPub
    thread's queue, as its timer does it on that thread) with the buffers' lock held
    throughout: a flush elsewhere that finds the buffers empty then knows their text is in
    the queue, ahead of anything it sends next (the kernel's idle status). Without it, a
    cell's whole output of some megabytes, taken by the timer while it was being serialised,
    came after the cell's end and was lost for it."""
    with stream._buffer_lock:
        _own_flush(stream)


def flush(stream):
    """ipykernel's OutStream.flush, returning at once when the stream holds nothing to send."""
    in_iopub = stream.pub_thread is not None and stream.pub_thread.thread is not None and \
        stream.pub_thread.thread.ident == threading.get_ident()
    settled = pipe_settled(stream, 0 if in_iopub else PIPE_WAIT)
    if settled and stream.echo is None:
        with stream._buffer_lock:
            if not stream._buffers:
                return
    _flush(stream)


def install():
    ipykernel.iostream.OutStream._watch_pipe_fd = watch_pipe
    ipykernel.iostream.OutStream._flush = locked_flush
    ipykernel.iostream.OutStream.flush = flush
