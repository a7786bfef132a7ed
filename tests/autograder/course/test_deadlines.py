"""Do due dates and extensions from nbgrader_config.py become nbgrader's lateness, and does the
course's late penalty cost what it says? (The exchange test grades real late submissions:
tests/autograder/test_exchange.py.)"""

from __future__ import annotations

from datetime import datetime

import pytest
from traitlets.config import Config

from autograder.course.deadlines import (
    DeadlineError,
    Lateness,
    PercentPerDay,
    check_deadlines,
    due_date,
    late_by,
)
from autograder.i18n import language

DAY = 86400
IDS = ["01_attention_by_hand", "02_embeddings"]


def deadlines(**traits):
    return Config({"Deadlines": traits})


@pytest.mark.parametrize(("seconds_late", "lost"), [
    (0, 0.0), (1, 0.1), (DAY, 0.1), (DAY + 1, 0.2), (9.5 * DAY, 1.0), (30 * DAY, 1.0)])
def test_each_started_day_costs_ten_percent_up_to_all(seconds_late, lost):
    """Does each started day late cost 10 % of the score, never more than the score?"""
    penalty = PercentPerDay().late_submission_penalty("ada", 8.0, seconds_late)
    assert penalty == pytest.approx(8.0 * lost)


@pytest.mark.parametrize(("code", "seconds_late", "said"), [
    ("en", 7200, "2:00:00"), ("en", DAY + 61, "1 d 0:01:01"), ("zh", 3 * DAY, "3 天 0:00:00"),
    ("zh", 59.6, "0:01:00")])
def test_lateness_is_told_in_the_course_language(code, seconds_late, said):
    """Is a lateness of days told with the course's word for a day (Python's own '1 day,'
    was English in a Chinese report), rounded to the second?"""
    with language(code):
        assert late_by(Lateness(None, None, seconds_late, 8.0, 0.8)) == said


@pytest.mark.parametrize(("code", "said"), [("en", "0:10:00 (within the grace minutes)"),
                                            ("zh", "0:10:00（在宽限时间之内）")])
def test_a_lateness_within_the_grace_minutes_says_so(code, said):
    """Is a notebook 10 minutes past its due date, with 15 minutes of grace, not late, and
    told as within the grace, in the course's language; and one 16 minutes past late?"""
    within = Lateness(None, None, 600, 8.0, 0.0, grace_seconds=900)
    assert not within.is_late and Lateness(None, None, 960, 8.0, 0.8, 900).is_late
    with language(code):
        assert late_by(within) == said


def test_grace_minutes_are_not_late():
    """Is a submission within the grace minutes free, and one past them a day late?"""
    plugin = PercentPerDay(grace_minutes=15)
    assert plugin.late_submission_penalty("ada", 10.0, 14 * 60) == 0
    assert plugin.late_submission_penalty("ada", 10.0, 16 * 60) == pytest.approx(1.0)


def test_due_date_with_a_zone_is_stored_in_utc():
    """Is '2026-12-04 23:59:00 Europe/Berlin' stored as nbgrader keeps dates (naive UTC)?"""
    assert due_date("01_attention_by_hand", "2026-12-04 23:59:00 Europe/Berlin") == datetime(
        2026, 12, 4, 22, 59)


@pytest.mark.parametrize(("text", "utc"), [
    ("2026-12-04 23:59:00 Asia/Shanghai", datetime(2026, 12, 4, 15, 59)),
    ("2026-12-04 23:59:00 +08:00", datetime(2026, 12, 4, 15, 59)),
    ("2026-12-04 23:59:00 +0800", datetime(2026, 12, 4, 15, 59)),  # not 800 seconds
    ("2026-12-04 23:59:00+08:00", datetime(2026, 12, 4, 15, 59)),
    ("2026-12-04 23:59:00 UTC", datetime(2026, 12, 4, 23, 59)),
    ("2026-12-04 23:59:00", datetime(2026, 12, 4, 23, 59)),
])
def test_an_offset_or_a_zone_is_read_as_written(text, utc):
    """Is a due date with a zone of the tz database, or an offset after a space or none,
    stored at its time in UTC?"""
    assert due_date("01_attention_by_hand", text) == utc


@pytest.mark.parametrize("text", ["2026-12-04 23:59:00 Asia/Beijing", "2026-12-04 23:59:00 CST",
                                  "2026-12-04T23:59 CST", "2026-12-04 23:59:00 8"])
def test_a_zone_the_kit_does_not_know_is_refused(text):
    """Is a due date whose zone is no zone the kit knows (which nbgrader reads as UTC,
    eight hours off for a course in Beijing) refused, naming the zone and the forms to use?"""
    zone = text.split()[-1]
    with pytest.raises(DeadlineError, match=rf"time zone '{zone}'.*Asia/Shanghai.*\+08:00"):
        check_deadlines(deadlines(due_dates={"01_attention_by_hand": text}), IDS)


def test_a_date_that_does_not_parse_is_named_with_the_form_to_use():
    """Does a due date that is not a date stop grading with the key and the form to write?"""
    with pytest.raises(DeadlineError, match=r"due_dates\['01_attention_by_hand'\].*write it as"):
        check_deadlines(deadlines(due_dates={"01_attention_by_hand": "next friday-ish"}), IDS)


def test_an_unknown_assignment_id_is_named():
    """Does a due date for an assignment the course does not have stop grading, naming it?"""
    with pytest.raises(DeadlineError, match="01_attention,.*not an assignment"):
        check_deadlines(deadlines(due_dates={"01_attention": "2026-12-04 12:00"}), IDS)


def test_extensions_must_be_hours_per_student():
    """Is an extension given as anything but {student: hours} refused with an example?"""
    with pytest.raises(DeadlineError, match=r"\{'ada': 48\}"):
        check_deadlines(deadlines(extension_hours={"02_embeddings": 48}), IDS)
    check_deadlines(deadlines(due_dates={"02_embeddings": "2026-12-04 12:00 UTC"},
                              extension_hours={"02_embeddings": {"ada": 48}}), IDS)


@pytest.mark.parametrize(("traits", "said"), [
    ({"percent_per_day": 150}, "percent_per_day is 150: a percent of the score lost per day "
                               "late must be from 0 to 100"),
    ({"percent_per_day": -5}, "percent_per_day is -5"),
    ({"grace_minutes": -10}, "grace_minutes is -10: minutes of grace must be 0 or more"),
])
def test_a_penalty_out_of_its_range_is_refused(traits, said):
    """Is a percent a day over 100 (everything lost on the first day) or under 0 (points
    added), or negative grace, refused before grading, naming the setting and its range; and
    are 0 and 100 taken?"""
    with pytest.raises(DeadlineError, match=said):
        check_deadlines(Config({"PercentPerDay": traits}), IDS)
    for percent in (0, 100):
        check_deadlines(Config({"PercentPerDay": {"percent_per_day": percent}}), IDS)
