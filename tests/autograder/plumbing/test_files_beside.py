"""Does carrying a folder's files into its replacement move the ones the new folder lacks,
but the kit's own named files, and leave the ones it holds too where they were?"""

from __future__ import annotations

from pathlib import Path

from autograder.plumbing.files_beside import carry, files_beside


def test_the_files_the_new_folder_lacks_are_carried(tmp_path):
    old, new = tmp_path / "old", tmp_path / "new"
    for path, text in {"nb.ipynb": "old notebook", "notes.txt": "a TA's", "deep/more.txt": "x",
                       "clash.txt": "old"}.items():
        (old / path).parent.mkdir(parents=True, exist_ok=True)
        (old / path).write_text(text)
    new.mkdir()
    (new / "clash.txt").write_text("new")
    moved = carry(old, new, ours={"nb.ipynb"})
    assert moved == [Path("deep/more.txt"), Path("notes.txt")]
    assert (new / "notes.txt").read_text() == "a TA's" and (new / "deep/more.txt").is_file()
    assert (new / "clash.txt").read_text() == "new" and (old / "clash.txt").read_text() == "old"
    assert files_beside(old) == [Path("clash.txt"), Path("nb.ipynb")]
    assert carry(tmp_path / "nowhere", new) == []
