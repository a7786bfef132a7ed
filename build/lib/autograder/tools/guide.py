"""The documentation, from the kit as installed: `python -m autograder guide [PAGE]` prints a
page of the documentation site, so that an instructor with the wheel alone can read what a
message points to (the kit's texts name pages as `guide PAGE`, never as a path of the
repository).

The pages are the site's Markdown: docs/ in a checkout, autograder/pages/ in a wheel
(pyproject.toml ships docs/ there). Two pages are not files of docs/: the authoring guide,
which lives in the kit (autograder/docs/, the default page), and the pages of settings and
commands, made from the kit's source and its help as the site makes them."""

from __future__ import annotations

from pathlib import Path

from autograder.i18n import t
from autograder.plumbing.errors import KitError

KIT = Path(__file__).resolve().parents[1]
AUTHORING = "instructors/writing-assignments"  # the default page; the site shows it there
SETTINGS = "reference/settings"
COMMANDS = "reference/commands"


def pages_folder() -> Path:
    """Where the site's Markdown is: in the wheel, else in the checkout."""
    shipped = KIT / "pages"
    return shipped if shipped.is_dir() else KIT.parent / "docs"


def page_names() -> list[str]:
    """Every page `guide` prints: its path under docs/, without `.md`."""
    folder = pages_folder()
    files = [p.relative_to(folder).with_suffix("").as_posix() for p in folder.rglob("*.md")]
    return sorted({*files, AUTHORING, SETTINGS, COMMANDS})


def find_page(asked: str) -> str:
    """The page `asked` names: its whole name (`grading/sandbox`), or its last part where one
    page has it (`sandbox`), an English page before its Chinese one (`zh/...`), or a
    folder's first page (`zh`: zh/index)."""
    name = asked.strip().removeprefix("docs/").removesuffix(".md").strip("/")
    names = page_names()
    if name in names:
        return name
    if f"{name}/index" in names:
        return f"{name}/index"
    ending = [n for n in names if n.rsplit("/", 1)[-1] == name or n.endswith(f"/{name}")]
    english = [n for n in ending if not n.startswith("zh/")]
    found = english or ending
    if len(found) == 1:
        return found[0]
    if found:
        raise KitError(t("{asked!r} names more than one page: {pages}; give the whole name",
                         asked=asked, pages=t(", ").join(found)))
    raise KitError(t("no page is called {asked!r}; `python -m autograder guide --list` lists "
                     "them", asked=asked))


def page_text(name: str) -> str:
    """The Markdown of page `name` (a name page_names gives)."""
    if name == SETTINGS:
        from autograder.tools.settings_page import settings_page

        return settings_page()
    if name == COMMANDS:
        from autograder.tools.commands_page import commands_page

        return commands_page()
    if name == AUTHORING:
        return (KIT / "docs" / "writing-assignments.md").read_text(encoding="utf-8")
    return (pages_folder() / f"{name}.md").read_text(encoding="utf-8")


def title(name: str) -> str:
    """A page's title: its first heading."""
    if name in (SETTINGS, COMMANDS):
        return name.rsplit("/", 1)[-1].capitalize()  # made, not read: its title is known
    lines = page_text(name).splitlines()
    return next((line.lstrip("#").strip() for line in lines if line.startswith("# ")), name)


def page_list() -> str:
    """One line a page: its name and title."""
    names = page_names()
    width = max(map(len, names))
    return "\n".join(f"{name:<{width}}  {title(name)}" for name in names)
