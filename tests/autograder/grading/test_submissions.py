"""Which submissions does grade find, and which does it leave unread?"""

from __future__ import annotations

import nbformat

from autograder.grading.submissions import find_submissions

ID = "01_attention_by_hand"


def submit(root, student, text):
    folder = root / "submitted" / student / ID
    folder.mkdir(parents=True)
    (folder / f"{ID}.ipynb").write_text(text)


def test_a_grade_of_one_student_reads_that_students_notebook_alone(tmp_path):
    """With students given, is another student's unreadable notebook left unread (no problem
    of theirs reported), and found again when the whole class is graded?"""
    submit(tmp_path, "ann", nbformat.writes(nbformat.v4.new_notebook()))
    submit(tmp_path, "bob", "{ not json")
    (tmp_path / "submitted" / "not a student id").mkdir()

    ready, problems = find_submissions(tmp_path, [ID], {ID: []}, ["ann"])
    assert [(s.student, s.assignment) for s in ready] == [("ann", ID)]
    assert problems == []

    ready, problems = find_submissions(tmp_path, [ID], {ID: []}, ["b*"])
    assert ready == [] and [p.student for p in problems] == ["bob"]

    ready, problems = find_submissions(tmp_path, [ID], {ID: []})
    assert [s.student for s in ready] == ["ann"]
    assert sorted(p.student for p in problems) == ["bob", "not a student id"]


def test_grade_with_no_ids_takes_only_what_was_handed_in(tmp_path):
    """With no id named, are only the assignments someone handed in graded and registered
    (an export would give every student a 0 for the others), the rest said on the console,
    and every assignment kept when nothing at all was handed in?"""
    from autograder.grading.parallel import handed_in

    (tmp_path / "submitted" / "ada" / "01_a").mkdir(parents=True)
    said = []
    assert handed_in(tmp_path, ["01_a", "02_b", "03_c"], said.append) == ["01_a"]
    assert said and "02_b, 03_c" in said[0] and "not graded, nor registered" in said[0]
    assert handed_in(tmp_path / "empty", ["01_a", "02_b"], said.append) == ["01_a", "02_b"]


def test_a_notebook_past_the_bound_is_refused_unread_with_the_fix(tmp_path, monkeypatch):
    """Is a notebook larger than the kit reads (reading takes about ten times its size in
    memory) refused with its size, the bound and the fix, without being read, while one
    within it is taken?"""
    from autograder.course.submission_files import NOTEBOOK_BYTES
    from autograder.grading import submissions

    within = nbformat.writes(nbformat.v4.new_notebook())
    submit(tmp_path, "ann", within)
    submit(tmp_path, "bob", within + " " * NOTEBOOK_BYTES)
    read = submissions.nbformat.read

    def read_once_only_anns(path, *args, **kwargs):
        assert "bob" not in str(path), "the large notebook was read"
        return read(path, *args, **kwargs)

    monkeypatch.setattr(submissions.nbformat, "read", read_once_only_anns)
    ready, [problem] = find_submissions(tmp_path, [ID], {ID: []})
    assert [s.student for s in ready] == ["ann"]
    assert problem.student == "bob" and not problem.graded_anyway
    assert f"more than the {NOTEBOOK_BYTES // 2**20} MB the kit reads" in problem.reason
    assert "Clear Outputs" in problem.fix


def test_a_notebook_of_more_code_than_the_kit_judges_is_refused_with_the_fix(tmp_path):
    """Is a notebook whose code cells hold more than the kit judges (generated definitions,
    whose judging time grows with their number) refused alone with its count, the bound and
    the fix, while one of a course's size is taken, and one whose only large cell is too large
    to run (grading skips it, and says so)?"""
    from autograder.course.submission_files import CODE_CHARACTERS

    def with_code(text):
        notebook = nbformat.v4.new_notebook()
        notebook.cells = [nbformat.v4.new_code_cell(text)]
        return nbformat.writes(notebook)

    def in_cells(text, count):
        notebook = nbformat.v4.new_notebook()
        notebook.cells = [nbformat.v4.new_code_cell(text) for _ in range(count)]
        return nbformat.writes(notebook)

    submit(tmp_path, "ann", with_code("def f(x):\n    return x\n" * 2_000))
    submit(tmp_path, "bob", in_cells("def f(x):\n    return x\n" * 500, 100))
    # one cell too large to run (grading does not run it, and says so) counts for nothing
    submit(tmp_path, "cy", with_code("x = 1\n" * 1_000_000))
    ready, [problem] = find_submissions(tmp_path, [ID], {ID: []})
    assert [s.student for s in ready] == ["ann", "cy"]
    assert problem.student == "bob" and not problem.graded_anyway
    assert f"more than the {CODE_CHARACTERS:,} the kit judges" in problem.reason
    assert "remove the generated or pasted code" in problem.fix


def test_a_timestamp_that_is_no_time_is_refused_with_the_fix(tmp_path):
    """Is a submission whose timestamp.txt holds text that is no time (nbgrader's reader
    raises on it: OverflowError, or its own AttributeError) refused alone, naming the file and
    how nbgrader writes a time, while a readable time, an empty file and none are graded? And
    does the gradebook's writer read such a file, written after the refusal, as no time?"""
    from autograder.grading.write_back import submission_time

    notebook = nbformat.writes(nbformat.v4.new_notebook())
    stamps = {"overflow": "9" * 30, "garbage": "garbage", "readable":
              "2026-12-03 14:00:00.000000 UTC", "zoned": "2026-12-03 15:00:00 Europe/Berlin",
              "empty": "", "none": None}
    for student, text in stamps.items():
        submit(tmp_path, student, notebook)
        if text is not None:
            (tmp_path / "submitted" / student / ID / "timestamp.txt").write_text(text)
    ready, problems = find_submissions(tmp_path, [ID], {ID: []})
    assert sorted(s.student for s in ready) == ["empty", "none", "readable", "zoned"]
    assert sorted(p.student for p in problems) == ["garbage", "overflow"]
    for problem in problems:
        assert problem.path.name == "timestamp.txt" and not problem.graded_anyway
        assert "no time the kit can read" in problem.reason and "UTC" in problem.fix
    assert str(submission_time(tmp_path, "zoned", ID)) == "2026-12-03 14:00:00"
    assert submission_time(tmp_path, "garbage", ID) is None
    assert submission_time(tmp_path, "overflow", ID) is None
    assert submission_time(tmp_path, "none", ID) is None
