"""A kernel's output streams (sandbox/output_streams.py): a flush with nothing to send returns
at once; nothing a cell prints is lost or comes out of order."""

from __future__ import annotations

COUNT_ROUND_TRIPS = """
import sys
thread = sys.stdout.pub_thread
handed = []
schedule = thread.schedule
thread.schedule = lambda job: (handed.append(job), schedule(job))[1]
answer = input("first")
asking = len(handed)
sys.stdout.write("some text")
answer = input("second")
thread.schedule = schedule
print(); print(asking, len(handed) > asking)
"""


def test_asking_for_input_with_nothing_to_send_does_not_wait_for_the_iopub_thread(kernel):
    """Does an input() prompt with nothing printed before it hand the IOPub thread nothing
    (ipykernel's flushes hand it two jobs each and wait for them), while text printed before
    a prompt is still flushed through it, and every prompt is asked?"""
    prompts = []
    outputs, _ = kernel.execute(COUNT_ROUND_TRIPS, timeout=20,
                                stdin_hook=lambda prompt: prompts.append(prompt) or "")
    text = "".join(o.get("text", "") for o in outputs if o["output_type"] == "stream")
    assert prompts == ["first", "second"]
    assert text == "some text\n0 True\n"


def stream_texts(outputs):
    streams = {"stdout": "", "stderr": ""}
    for output in outputs:
        assert output["output_type"] == "stream", output
        streams[output["name"]] += output["text"]
    return streams


def test_everything_a_cell_prints_arrives_in_order_before_the_kernel_is_idle(kernel):
    """Does every line a cell writes (print, print with flush, sys.stdout.write, a thread, a
    shell command, around input() prompts) reach the grader, in the order of each stream,
    when the cell is over?"""
    code = (
        "import sys, threading, os\n"
        "for i in range(200):\n"
        "    print(i, flush=i % 7 == 0)\n"
        "    print(-i, file=sys.stderr)\n"
        "    if i % 50 == 0:\n"
        "        answer = input()\n"
        "sys.stdout.write('no newline')\n"
        "worker = threading.Thread(target=lambda: print('from a thread'))\n"
        "worker.start(); worker.join()\n"
        "status = os.system('echo from a shell')\n"
    )
    outputs, _ = kernel.execute(code, timeout=30)
    streams = stream_texts(outputs)
    expected = "".join(f"{i}\n" for i in range(200)) + "no newlinefrom a thread\n"
    assert streams["stdout"] == expected + "from a shell\n"
    assert streams["stderr"] == "".join(f"{-i}\n" for i in range(200))


def test_what_a_cell_writes_to_its_file_descriptors_last_is_not_lost(kernel):
    """When the last thing a cell does is write to file descriptor 1 or 2 directly (os.write,
    as C code and shell commands do), does that text still reach the grader with the cell,
    cell after cell?"""
    for number in range(30):
        outputs, _ = kernel.execute(f"import os\nanswer = input()\n"
                                    f"written = os.write({1 + number % 2}, b'line {number}\\n')",
                                    timeout=20)
        name = ("stdout", "stderr")[number % 2]
        assert stream_texts(outputs)[name] == f"line {number}\n", number


FLUSH_JOBS = """
import sys, threading
from ipykernel.iostream import OutStream
thread = sys.stdout.pub_thread
flush_jobs = []
schedule = thread.schedule
def counting(job):
    if getattr(job, "__func__", None) in (OutStream._flush, threading.Event.set):
        flush_jobs.append(job)
    return schedule(job)
thread.schedule = counting
"""


def test_a_cell_with_nothing_to_send_ends_without_a_round_trip_to_the_iopub_thread(kernel):
    """Does a cell that prints nothing end without handing the IOPub thread a flush
    (ipykernel flushes both streams twice a cell, two jobs each), while one that prints
    still has its text flushed through it?"""
    run = kernel.execute
    run(FLUSH_JOBS, timeout=20)
    run("quiet = 6 * 7", timeout=20)
    outputs, _ = run("counted = len(flush_jobs)\nprint('text')", timeout=20)
    assert stream_texts(outputs)["stdout"] == "text\n"
    outputs, _ = run("thread.schedule = schedule\nprint(counted, len(flush_jobs) > counted)",
                     timeout=20)
    assert stream_texts(outputs)["stdout"] == "0 True\n"


def test_a_flush_waits_for_what_is_still_in_the_pipe(kernel):
    """Without ipykernel's pause before a cell's reply (the kit's kernels have none), does
    text a cell wrote last to file descriptor 1 or 2 still reach the grader with its cell,
    cell after cell? (A flush that found the stream's buffers empty and returned, the text
    still in the pipe, lost it in about one cell out of three.)"""
    kernel.execute("get_ipython().kernel._execute_sleep = 0", timeout=20)
    for number in range(60):
        outputs, _ = kernel.execute(f"import os\nwritten = os.write({1 + number % 2}, "
                                    f"b'line {number}\\n')", timeout=20)
        assert stream_texts(outputs)[("stdout", "stderr")[number % 2]] == f"line {number}\n", \
            number


def test_a_cells_large_output_taken_by_the_flush_timer_still_comes_with_its_cell(kernel):
    """When the cell ends while the IOPub thread's 0.2 s timer is sending a few megabytes
    the cell printed (taken from the buffers, not yet queued), does that text still come
    with its cell, every time? (A flush that found the buffers empty and returned lost the
    whole output in about one cell out of six.)"""
    for number in range(40):
        pause = 0.196 + 0.0002 * number  # across the moment the timer fires
        outputs, _ = kernel.execute(f"import time\nprint('y' * 3_000_000)\ntime.sleep({pause})",
                                    timeout=30)
        assert stream_texts(outputs)["stdout"] == "y" * 3_000_000 + "\n", number


def test_a_stream_whose_pipe_reader_died_flushes_at_once(kernel):
    """When a cell closes the copy of file descriptor 1 the pipe's reader writes to (the
    reader then dies at the next write), does a flush still take no wait (nothing reads the
    pipe any more), and do the next cells' prints still arrive?"""
    kernel.execute("import os, sys\nos.close(sys.stdout.fileno())\nwritten = os.write(1, b'x')",
                   timeout=20)
    outputs, _ = kernel.execute(
        "import sys, time\nimport output_streams\n"
        "sys.stdout.watch_fd_thread.join(5)\n"
        "print(output_streams.pipe_settled(sys.stdout, 5), sys.stdout.kit_passing)",
        timeout=30)
    assert stream_texts(outputs)["stdout"] == "True False\n"
    outputs, _ = kernel.execute("for i in range(3):\n    print(i, flush=True)", timeout=20)
    assert stream_texts(outputs)["stdout"] == "0\n1\n2\n"
