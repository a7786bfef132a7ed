"""The operating system's words inside the kit's messages, in the course's language."""

from __future__ import annotations

import errno
import os

from autograder.build.standalone import translation_code
from autograder.i18n import language, os_reason, t
from autograder.i18n.standalone import ZH_OS_ERRORS


def raised(action) -> OSError:
    try:
        action()
    except OSError as error:
        return error
    raise AssertionError("the action raised no OSError")


def test_every_translated_error_is_a_system_error_name():
    """Is every key of the table a name the errno module knows (a typo translates nothing)?"""
    unknown = sorted(set(ZH_OS_ERRORS) - set(errno.errorcode.values()))
    assert not unknown, f"not errno names: {unknown}"


def test_a_chinese_message_says_the_system_error_in_chinese(tmp_path):
    """Does an OSError filled into a Chinese message read in Chinese, its number and both of
    its paths kept, where the English message keeps Python's own words?"""
    missing = tmp_path / "gone"
    error = raised(lambda: os.rename(missing, tmp_path / "there"))
    with language("zh"):
        chinese = t("{path} cannot be read ({error}): it holds the secret the hidden cases "
                    "are drawn from; put it back from your backup",
                    path="x", error=error)
        reason = os_reason(error)
    assert f"没有那个文件或目录（errno {errno.ENOENT}）：'{missing}' -> '{tmp_path / 'there'}'" \
        in chinese, chinese
    assert "No such file" not in chinese
    assert reason == "没有那个文件或目录"
    english = t("it cannot be read ({error})", error=error)
    assert english == f"it cannot be read ({error})"
    assert os_reason(error) == error.strerror


def test_an_error_the_table_lacks_keeps_the_systems_words():
    """Does an error without a Chinese entry still say what the system said, with its number?"""
    error = OSError(errno.EILSEQ, os.strerror(errno.EILSEQ))
    with language("zh"):
        said = t("it cannot be read ({error})", error=error)
    assert os.strerror(errno.EILSEQ) in said and f"errno {errno.EILSEQ}" in said


def test_an_english_helper_cell_leaves_the_table_behind():
    """Does the code copied into an English course's notebooks carry no Chinese table, and a
    Chinese course's carry it whole?"""
    assert "ZH_OS_ERRORS = {}" in translation_code("en")
    assert ZH_OS_ERRORS["EACCES"] in translation_code("zh")
