"""A kernel's output streams (sandbox/output_streams.py): a flush with nothing to send
returns at once, and nothing a cell prints is lost or comes out of order."""

from __future__ import annotations

from tests.autograder.sandbox.conftest import run

COUNT_ROUND_TRIPS = """
import sys
thread = sys.stdout.pub_thread
handed = []
schedule = thread.schedule
thread.schedule = lambda job: (handed.append(job), schedule(job))[1]
sys.stdout.flush(); sys.stderr.flush()
idle = len(handed)
sys.stdout.write("some text"); sys.stdout.flush()
thread.schedule = schedule
print(); print(idle, len(handed) > idle)
"""


def test_a_flush_with_nothing_to_send_does_not_wait_for_the_iopub_thread(kernel):
    """Does flushing streams that hold no text hand the IOPub thread nothing (ipykernel's own
    flush hands it two jobs and waits), while a stream holding text is still flushed
    through it?"""
    text, errors = run(kernel, COUNT_ROUND_TRIPS)
    assert errors == []
    assert text.splitlines()[-1] == "0 True"
    assert text.startswith("some text")


def test_everything_a_cell_prints_arrives_in_order_before_the_kernel_is_idle(kernel):
    """Does every line a cell writes (print, print with flush, sys.stdout.write, a thread, a
    shell command) reach the grader, in the order of each stream, when the cell is over?"""
    code = (
        "import sys, threading, os\n"
        "for i in range(200):\n"
        "    print(i, flush=i % 7 == 0)\n"
        "    print(-i, file=sys.stderr)\n"
        "sys.stdout.write('no newline')\n"
        "worker = threading.Thread(target=lambda: print('from a thread'))\n"
        "worker.start(); worker.join()\n"
        "status = os.system('echo from a shell')\n"
    )
    outputs, _ = kernel.execute(code, timeout=30)
    streams = {"stdout": "", "stderr": ""}
    for output in outputs:
        assert output["output_type"] == "stream", output
        streams[output["name"]] += output["text"]
    expected = "".join(f"{i}\n" for i in range(200)) + "no newlinefrom a thread\n"
    assert streams["stdout"] == expected + "from a shell\n"
    assert streams["stderr"] == "".join(f"{-i}\n" for i in range(200))
