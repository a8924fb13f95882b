"""tools/work_copies.py: the learner's copies in work/, their links, and course updates."""

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import copy_render  # noqa: E402
import work_copies as W  # noqa: E402


def notebook(*cells, metadata=None) -> str:
    """A notebook of ``(cell_type, source[, outputs])`` cells, written as nbformat does."""
    made = []
    for i, (kind, source, *outputs) in enumerate(cells):
        cell = {"cell_type": kind, "id": f"c{i}", "metadata": {}, "source": source}
        if kind == "code":
            cell.update(execution_count=None, outputs=outputs[0] if outputs else [])
        made.append(cell)
    nb = {"cells": made, "metadata": metadata or {"language_info": {"name": "python"}}}
    return json.dumps({**nb, "nbformat": 4, "nbformat_minor": 5}, indent=1) + "\n"


CHAPTER_1 = notebook(
    ("markdown", "# 1. Devices\n\nDo [the exercises](../exercises/01_devices.ipynb)."),
    ("code", "x = 1"),
    ("markdown", "Answers: [`solutions/01_devices.ipynb`](../solutions/01_devices.ipynb)."),
)
EXERCISE_1 = notebook(
    ("markdown", "Belongs to [chapter 1](../notebooks/01_devices.ipynb)."),
    ("code", 'raise NotImplementedError("your code here")'),
)


def make_course(root: Path) -> None:
    for rel, text in {
        "notebooks/01_devices.ipynb": CHAPTER_1,
        "notebooks/02_tensors.ipynb": notebook(("code", "y = 2")),
        "exercises/01_devices.ipynb": EXERCISE_1,
        "exercises/05_ddp_train.py": "print('one process')\n",
        "exercises/.ipynb_checkpoints/x.ipynb": "junk",
        "exercises/data/big.bin": "downloaded",
        "solutions/01_devices.ipynb": notebook(("code", "answer = 42")),
    }.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


def autosave(path: Path) -> None:
    """What JupyterLab writes into a notebook it only opened: the kernel's language_info."""
    nb = json.loads(path.read_text())
    nb["metadata"]["language_info"] = {"name": "python", "version": "3.11.7", "mimetype": "x"}
    nb["metadata"]["kernelspec"] = {"name": "d2lgpu", "display_name": "Python 3 (d2lgpu)"}
    path.write_text(json.dumps(nb, indent=1) + "\n")


def run_all(path: Path, text: str = "ran") -> None:
    """What Run All and Ctrl+S write: outputs and execution counts, sources unchanged."""
    nb = json.loads(path.read_text())
    for n, cell in enumerate(c for c in nb["cells"] if c["cell_type"] == "code"):
        cell["execution_count"] = n + 1
        cell["outputs"] = [{"name": "stdout", "output_type": "stream", "text": text}]
    path.write_text(json.dumps(nb, indent=1) + "\n")


def edit_source(path: Path, new: str) -> None:
    nb = json.loads(path.read_text())
    next(c for c in nb["cells"] if c["cell_type"] == "code")["source"] = new
    path.write_text(json.dumps(nb, indent=1) + "\n")


def change_course(root: Path, rel: str, code: str) -> None:
    nb = json.loads((root / rel).read_text())
    next(c for c in nb["cells"] if c["cell_type"] == "code")["source"] = code
    (root / rel).write_text(json.dumps(nb, indent=1) + "\n")


def code_of(path: Path) -> str:
    cells = json.loads(path.read_text())["cells"]
    return copy_render._source(next(c for c in cells if c["cell_type"] == "code"))


# --- the layout and the links


def test_the_copies_go_into_chapters_exercises_and_solutions_and_it_says_so(tmp_path):
    make_course(tmp_path)
    outcome = W.sync_work(tmp_path)
    work = tmp_path / "work"
    assert sorted(outcome.copied) == [
        "chapters/01_devices.ipynb",
        "chapters/02_tensors.ipynb",
        "exercises/01_devices.ipynb",
        "exercises/05_ddp_train.py",
        "solutions/01_devices.ipynb",
    ]
    assert not (work / "exercises" / ".ipynb_checkpoints").exists()
    assert not (work / "exercises" / "data").exists()  # sub-folders are not the course's files
    assert (work / "exercises" / "05_ddp_train.py").read_text() == "print('one process')\n"
    assert W.describe(outcome, tmp_path) == [
        "work/: copied 2 chapters, 2 exercise files, 1 solution file for you to edit and save"
    ]
    again = W.sync_work(tmp_path)
    assert W.describe(again, tmp_path) == []  # nothing new: nothing said
    assert sorted(again.kept) == sorted(outcome.copied)
    # the record is written sorted, one field per line: the same copies write the same bytes
    record = (work / W.RECORD).read_text()
    assert record == json.dumps(json.loads(record), indent=1, sort_keys=True) + "\n"
    assert '\n  "chapters/01_devices.ipynb": {\n   "' in record


def test_links_in_the_copies_point_at_the_copies(tmp_path):
    make_course(tmp_path)
    W.sync_work(tmp_path)
    work = tmp_path / "work"
    chapter = (work / "chapters" / "01_devices.ipynb").read_text()
    exercise = (work / "exercises" / "01_devices.ipynb").read_text()
    assert "](../exercises/01_devices.ipynb)" in chapter  # work/exercises/, beside chapters/
    assert "](../solutions/01_devices.ipynb)" in chapter
    assert "](../chapters/01_devices.ipynb)" in exercise and "../notebooks/" not in exercise
    # the course's own files are untouched
    assert (
        "../notebooks/01_devices.ipynb" in (tmp_path / "exercises" / "01_devices.ipynb").read_text()
    )


@pytest.mark.parametrize(
    ("markdown", "expected"),
    [
        (
            "[ch 1](../notebooks/01_devices.ipynb#1.2-x)",
            "[ch 1](../chapters/01_devices.ipynb#1.2-x)",
        ),
        ("[ex](../exercises/01_devices.ipynb)", "[ex](../exercises/01_devices.ipynb)"),
        ("![plot](../solutions/a.png)", "![plot](../solutions/a.png)"),
        (
            "[`scripts/inside_ddp.py`](../scripts/inside_ddp.py)",
            "`scripts/inside_ddp.py` (in the course's folder, outside `work/`)",
        ),
        (
            "see the [summary](../docs/results/H100/bench/summary.md).",
            "see the summary (the course's `docs/results/H100/bench/summary.md`).",
        ),
        ("[web](https://pytorch.org) and [here](02_tensors.ipynb)", None),  # not ../: as is
    ],
)
def test_rewrite_links(markdown, expected):
    assert W.rewrite_links(markdown) == (markdown if expected is None else expected)


def test_a_glossary_link_opens_the_page_in_the_repository(tmp_path, monkeypatch):
    link = "a [copy engine](../docs/site/glossary.md#copy-engine) moves it"
    repository = "https://github.com/someone/fork"
    assert W.rewrite_links(link, repository) == (
        f"a [copy engine]({repository}/blob/main/docs/site/glossary.md#copy-engine) moves it"
    )
    # by default the configured repository, pyproject.toml's [project.urls] Repository
    configured = W.repository_url()
    assert configured and configured.startswith("https://github.com/")
    assert f"]({configured}/blob/main/docs/site/glossary.md#copy-engine)" in W.rewrite_links(link)
    # where none is configured: plain text naming the file, as for any other course file
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "d2lgpu"\n')
    assert W.repository_url(tmp_path) is None
    monkeypatch.setattr(copy_render, "repository_url", lambda root=None: None)
    assert W.rewrite_links(link) == "a copy engine (the course's `docs/site/glossary.md`) moves it"


def test_every_link_in_the_real_courses_copies_stays_inside_work(tmp_path):
    work = tmp_path / "work"
    outcome = W.sync_work(ROOT, work)
    assert len(outcome.copied) == len(W.course_files(ROOT)) >= 30
    link = re.compile(
        r"\]\(([\w./#-]+\.(?:ipynb|py|md|png|json)(?:#[\w.-]*)?)\)"
    )  # not kernel[g](x)
    checked = 0
    for name in outcome.copied:
        if not name.endswith(".ipynb"):
            continue
        cells = json.loads((work / name).read_text())["cells"]
        for cell in cells:
            if cell["cell_type"] != "markdown":
                continue
            for target in link.findall(copy_render._source(cell)):
                if re.match(r"[a-z]+:", target) or target.startswith("#"):
                    continue  # a web page, or a heading of the same notebook
                path = ((work / name).parent / target.split("#")[0]).resolve()
                assert path.is_relative_to(work.resolve()), f"{name}: {target} leaves work/"
                assert path.exists(), f"{name}: {target} is not a copy in work/"
                checked += 1
    assert checked >= 30  # each chapter links its exercises and solutions, and back


# --- what counts as a change


def test_a_copy_only_opened_follows_the_update(tmp_path):
    make_course(tmp_path)
    W.sync_work(tmp_path)
    copy = tmp_path / "work" / "chapters" / "01_devices.ipynb"
    autosave(copy)  # opened in JupyterLab, nothing touched, autosaved
    change_course(tmp_path, "notebooks/01_devices.ipynb", "x = 'v2'")
    outcome = W.sync_work(tmp_path)
    assert outcome.updated == ["chapters/01_devices.ipynb"] and outcome.previous == {}
    assert code_of(copy) == "x = 'v2'"
    assert not (tmp_path / "work" / W.PREVIOUS).exists()  # only metadata was lost
    assert W.describe(outcome, tmp_path) == [
        "work/chapters/01_devices.ipynb: updated to the course's new version "
        "(you had not changed its cells)"
    ]


def test_a_copy_that_was_run_follows_the_update_and_its_outputs_are_kept(tmp_path):
    make_course(tmp_path)
    W.sync_work(tmp_path)
    copy = tmp_path / "work" / "chapters" / "01_devices.ipynb"
    run_all(copy, "my outputs")
    ran = copy.read_text()
    change_course(tmp_path, "notebooks/01_devices.ipynb", "x = 'v2'")
    outcome = W.sync_work(tmp_path)
    assert outcome.updated == ["chapters/01_devices.ipynb"]
    kept = tmp_path / "work" / outcome.previous["chapters/01_devices.ipynb"]
    assert kept.parent == tmp_path / "work" / "previous" / "chapters"
    assert kept.read_text() == ran  # the learner's run, byte for byte
    assert code_of(copy) == "x = 'v2'"
    (line,) = W.describe(outcome, tmp_path)
    assert (
        f"the copy with your outputs is work/{outcome.previous['chapters/01_devices.ipynb']}"
        in line
    )
    # a second update later never overwrites the first kept copy
    run_all(copy, "second run")
    change_course(tmp_path, "notebooks/01_devices.ipynb", "x = 'v3'")
    second = W.sync_work(tmp_path)
    assert (
        second.previous["chapters/01_devices.ipynb"]
        != outcome.previous["chapters/01_devices.ipynb"]
    )
    assert kept.read_text() == ran
    assert len(list((tmp_path / "work" / "previous" / "chapters").iterdir())) == 2


def test_a_changed_copy_is_kept_and_the_learner_is_told_once(tmp_path):
    make_course(tmp_path)
    W.sync_work(tmp_path)
    copy = tmp_path / "work" / "exercises" / "01_devices.ipynb"
    edit_source(copy, "answer = 'mine'")
    mine = copy.read_text()
    change_course(tmp_path, "exercises/01_devices.ipynb", "stub = 'v2'")
    outcome = W.sync_work(tmp_path)
    assert outcome.newer == ["exercises/01_devices.ipynb"] and copy.read_text() == mine
    (line,) = W.describe(outcome, tmp_path)
    assert line.startswith("work/exercises/01_devices.ipynb: you changed it, so it is kept")
    assert "exercises/01_devices.ipynb. To start again from it, rename your copy" in line
    assert "make lab" in line
    again = W.sync_work(tmp_path)
    assert W.describe(again, tmp_path) == [] and copy.read_text() == mine  # said once
    assert "exercises/01_devices.ipynb" in again.kept
    change_course(tmp_path, "exercises/01_devices.ipynb", "stub = 'v3'")
    assert W.sync_work(tmp_path).newer == ["exercises/01_devices.ipynb"]  # a newer version: told
    # renamed: the next run copies the new version beside it
    copy.rename(copy.with_name("01_mine.ipynb"))
    assert W.sync_work(tmp_path).copied == ["exercises/01_devices.ipynb"]
    assert code_of(copy) == "stub = 'v3'" and copy.with_name("01_mine.ipynb").read_text() == mine


def test_copies_kept_in_the_same_second_are_numbered_and_never_hidden(tmp_path, monkeypatch):
    make_course(tmp_path)
    W.sync_work(tmp_path)
    copy = tmp_path / "work" / "chapters" / "01_devices.ipynb"
    monkeypatch.setattr(W.time, "strftime", lambda fmt: "20261126-101500")
    kept = []
    for version in ("v2", "v3", "v4"):  # three updates of a copy that was run, in one second
        run_all(copy, f"ran before {version}")
        change_course(tmp_path, "notebooks/01_devices.ipynb", f"x = '{version}'")
        kept.append(W.sync_work(tmp_path).previous["chapters/01_devices.ipynb"])
    assert kept == [
        "previous/chapters/01_devices.20261126-101500.ipynb",
        "previous/chapters/01_devices.20261126-101500-2.ipynb",
        "previous/chapters/01_devices.20261126-101500-3.ipynb",
    ]
    monkeypatch.undo()
    run_all(copy, "ran before v5")
    change_course(tmp_path, "notebooks/01_devices.ipynb", "x = 'v5'")
    name = W.sync_work(tmp_path).previous["chapters/01_devices.ipynb"]
    # named by the date and time it was kept, beside the name of the copy: the lab shows it
    assert re.fullmatch(r"previous/chapters/01_devices\.\d{8}-\d{6}\.ipynb", name), name


def test_what_the_learner_is_told_in_full(tmp_path):
    make_course(tmp_path)
    outcome = W.Outcome(
        copied=["chapters/02_tensors.ipynb"],
        kept=["chapters/01_devices.ipynb", "exercises/05_ddp_train.py"],
        newer=["exercises/01_devices.ipynb"],
        updated=["solutions/01_devices.ipynb", "chapters/03_x.ipynb", "chapters/04_x.ipynb"],
        reverted=["chapters/03_x.ipynb"],
        previous={"chapters/03_x.ipynb": "previous/chapters/03_x.1.ipynb",
                  "chapters/04_x.ipynb": "previous/chapters/04_x.1.ipynb"},
        unhidden=["previous/chapters/01_devices.1.ipynb"],
        waiting=["chapters/05_x.ipynb", "chapters/06_x.ipynb"],
    )  # fmt: skip
    assert W.describe(outcome, tmp_path) == [
        "work/: moved 1 kept copy from work/.previous/ (which the lab hides) to work/previous/, "
        "where the lab shows them; nothing was deleted",
        "work/: copied 1 chapter for you to edit and save; your 6 other copies are kept as they are",
        "work/solutions/01_devices.ipynb: updated to the course's new version (you had not changed "
        "its cells)",
        "work/chapters/03_x.ipynb: held an older version of the course (a save from a tab opened "
        "before an update puts one back); updated to the course's version; the copy with your "
        "outputs is work/previous/chapters/03_x.1.ipynb",
        "work/chapters/04_x.ipynb: updated to the course's new version (you had not changed its "
        "cells); the copy with your outputs is work/previous/chapters/04_x.1.ipynb",
        "work/: 2 copies wait for the course's update, left as they are because they are open in "
        "the JupyterLab that runs over work/: chapters/05_x.ipynb, chapters/06_x.ipynb. Save and "
        "close their tabs (or stop the lab), then run `make lab` again to take the update",
        "work/exercises/01_devices.ipynb: you changed it, so it is kept as it is; the course has a "
        "newer version, exercises/01_devices.ipynb. To start again from it, rename your copy and "
        "run `make lab`: it copies the new one beside yours. (Said once per new version.)",
    ]
    one = W.Outcome(waiting=["chapters/05_x.ipynb"], lab_unknown=True)
    assert W.describe(one, tmp_path) == [
        "work/: 1 copy waits for the course's update, left as they are because a JupyterLab runs "
        "over work/ and did not say which tabs are open: chapters/05_x.ipynb. Save and close "
        "their tabs (or stop the lab), then run `make lab` again to take the update"
    ]


def test_a_changed_script_is_kept_and_an_unchanged_one_follows(tmp_path):
    make_course(tmp_path)
    W.sync_work(tmp_path)
    script = tmp_path / "work" / "exercises" / "05_ddp_train.py"
    (tmp_path / "exercises" / "05_ddp_train.py").write_text("print('v2')\n")
    assert W.sync_work(tmp_path).updated == ["exercises/05_ddp_train.py"]
    assert script.read_text() == "print('v2')\n"
    script.write_text("print('my DDP')\n")
    (tmp_path / "exercises" / "05_ddp_train.py").write_text("print('v3')\n")
    assert W.sync_work(tmp_path).newer == ["exercises/05_ddp_train.py"]
    assert script.read_text() == "print('my DDP')\n"


def test_a_broken_notebook_of_the_learner_is_kept(tmp_path):
    make_course(tmp_path)
    W.sync_work(tmp_path)
    copy = tmp_path / "work" / "chapters" / "02_tensors.ipynb"
    copy.write_text("{ not json")
    change_course(tmp_path, "notebooks/02_tensors.ipynb", "y = 'v2'")
    assert W.sync_work(tmp_path).newer == ["chapters/02_tensors.ipynb"]
    assert copy.read_text() == "{ not json"


def test_a_copy_without_a_record_counts_as_made_from_the_current_version(tmp_path):
    make_course(tmp_path)
    W.sync_work(tmp_path)
    work = tmp_path / "work"
    (work / W.RECORD).unlink()
    edit_source(work / "chapters" / "01_devices.ipynb", "x = 'mine'")
    unrecorded = W.sync_work(tmp_path)
    assert W.describe(unrecorded, tmp_path) == []
    assert sorted(unrecorded.kept) == sorted(W.course_files(tmp_path))
    change_course(tmp_path, "notebooks/01_devices.ipynb", "x = 'v2'")
    change_course(tmp_path, "notebooks/02_tensors.ipynb", "y = 'v2'")
    outcome = W.sync_work(tmp_path)
    assert outcome.newer == ["chapters/01_devices.ipynb"]
    assert outcome.updated == ["chapters/02_tensors.ipynb"]
    assert code_of(work / "chapters" / "01_devices.ipynb") == "x = 'mine'"


# --- an older, flat work/


def git(cwd, *args, stdin=None):
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t", "PATH": "/usr/bin:/bin", "HOME": str(cwd)}  # fmt: skip
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, env=env)
    assert done.returncode == 0, f"git {' '.join(args)}: {done.stderr}"
    return done.stdout


def test_a_flat_work_folder_moves_into_the_layout_losing_nothing(tmp_path):
    make_course(tmp_path)
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "v1")
    work = tmp_path / "work"
    work.mkdir()
    old = {
        "chapter_01_devices.ipynb": "notebooks/01_devices.ipynb",
        "chapter_02_tensors.ipynb": "notebooks/02_tensors.ipynb",
        "01_devices.ipynb": "exercises/01_devices.ipynb",
        "05_ddp_train.py": "exercises/05_ddp_train.py",
    }
    for flat, source in old.items():  # what the older `make lab` did: byte copies
        shutil.copy(tmp_path / source, work / flat)
    (work / W.RECORD).write_text(
        json.dumps({flat: W.sha256((tmp_path / s).read_bytes()) for flat, s in old.items()})
    )
    autosave(work / "chapter_01_devices.ipynb")  # opened only
    edit_source(work / "01_devices.ipynb", "answer = 'mine'")  # the learner's answers
    (work / "05_ddp_train.py").write_text("print('my DDP')\n")
    (work / "my_notes.ipynb").write_text("mine")  # a file of the learner's own
    answers = (work / "01_devices.ipynb").read_text()
    # the course moves on after those copies were made: their versions are only in git now
    change_course(tmp_path, "notebooks/01_devices.ipynb", "x = 'v2'")
    change_course(tmp_path, "exercises/01_devices.ipynb", "stub = 'v2'")
    git(tmp_path, "commit", "-q", "-am", "v2")

    outcome = W.sync_work(tmp_path)
    assert sorted(outcome.moved) == [
        "chapters/01_devices.ipynb",
        "chapters/02_tensors.ipynb",
        "exercises/01_devices.ipynb",
        "exercises/05_ddp_train.py",
    ]
    assert not any((work / flat).exists() for flat in old)
    assert (work / "my_notes.ipynb").read_text() == "mine"  # not the course's: left alone
    assert outcome.updated == ["chapters/01_devices.ipynb"]  # only opened: follows, v1 found in git
    assert code_of(work / "chapters" / "01_devices.ipynb") == "x = 'v2'"
    assert outcome.newer == ["exercises/01_devices.ipynb"]
    assert (work / "exercises" / "01_devices.ipynb").read_text() == answers
    assert (work / "exercises" / "05_ddp_train.py").read_text() == "print('my DDP')\n"
    assert outcome.copied == ["solutions/01_devices.ipynb"]
    assert json.loads((work / W.RECORD).read_text())["format"] == W.RECORD_FORMAT
    lines = W.describe(outcome, tmp_path)
    assert lines[0].startswith("work/: moved your 4 copies into work/chapters/, work/exercises/")
    assert W.describe(W.sync_work(tmp_path), tmp_path) == []  # moved once, told once


def test_a_flat_copy_beside_a_copy_in_the_layout_is_left_where_it_is(tmp_path):
    make_course(tmp_path)
    W.sync_work(tmp_path)
    work = tmp_path / "work"
    (work / W.RECORD).write_text("{}")  # an older record
    (work / "chapter_02_tensors.ipynb").write_text("an old copy")
    outcome = W.sync_work(tmp_path)
    assert outcome.left == {"chapter_02_tensors.ipynb": "chapters/02_tensors.ipynb"}
    assert (work / "chapter_02_tensors.ipynb").read_text() == "an old copy"
    assert "work/chapter_02_tensors.ipynb: left where it is" in W.describe(outcome, tmp_path)[0]


def test_a_saved_chapter_survives_a_course_update_through_git(tmp_path):
    course, clone = tmp_path / "course", tmp_path / "learner"
    course.mkdir()
    make_course(course)
    (course / "tools").mkdir()
    work_tools = ("work_copies.py", "copy_render.py", "work_record.py", "lab_open.py")
    for tool in ("setup_env.py", *work_tools, "setup_cell.py"):
        shutil.copy(ROOT / "tools" / tool, course / "tools")
    shutil.copy(ROOT / ".gitignore", course)
    git(course, "init", "-q", "-b", "main")
    git(course, "add", "-A")
    git(course, "commit", "-q", "-m", "v1")
    git(tmp_path, "clone", "-q", str(course), str(clone))

    def copy_step():  # what `make lab` runs after the install, from the clone's own tools/
        code = "import sys; sys.argv = ['x']; sys.path.insert(0, 'tools'); import work_copies; work_copies.main()"
        done = subprocess.run(
            [sys.executable, "-c", code], cwd=clone, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    assert "copied 2 chapters" in copy_step()
    saved = clone / "work" / "chapters" / "01_devices.ipynb"
    edit_source(saved, "x = 'my experiment'")
    mine = saved.read_text()
    autosave(clone / "work" / "chapters" / "02_tensors.ipynb")
    assert git(clone, "status", "--porcelain") == ""  # work/ is the learner's: git sees nothing

    change_course(course, "notebooks/01_devices.ipynb", "x = 'v2'")
    change_course(course, "notebooks/02_tensors.ipynb", "y = 'v2'")
    git(course, "commit", "-q", "-am", "v2")
    git(clone, "pull", "-q", "--ff-only")  # the update: no collision with saved work

    out = copy_step()
    assert saved.read_text() == mine  # nothing lost
    assert "work/chapters/01_devices.ipynb: you changed it, so it is kept" in out
    assert code_of(clone / "work" / "chapters" / "02_tensors.ipynb") == "y = 'v2'"
    assert copy_step() == ""  # told once


def test_copies_kept_in_a_hidden_previous_move_to_a_visible_one_losing_nothing(tmp_path):
    # Earlier versions kept run copies in work/.previous/, which Jupyter hides (404).
    make_course(tmp_path)
    W.sync_work(tmp_path)
    work = tmp_path / "work"
    hidden = work / ".previous"
    files = {
        "chapters/01_devices.20261128-042518.ipynb": "run one",
        "chapters/01_devices.20261129-080000.ipynb": "run two",
        "solutions/notes": "a file with no suffix",
    }
    for name, text in files.items():
        (hidden / name).parent.mkdir(parents=True, exist_ok=True)
        (hidden / name).write_text(text)
    # a name already taken in work/previous/ (kept there since): neither is overwritten
    (work / "previous" / "chapters").mkdir(parents=True)
    taken = work / "previous" / "chapters" / "01_devices.20261128-042518.ipynb"
    taken.write_text("kept since")
    (work / "previous" / "chapters" / "01_devices.20261128-042518.moved.ipynb").write_text("x")
    (hidden / "link").symlink_to(work / "chapters")  # not a plain file: left where it is
    outcome = W.sync_work(tmp_path)
    assert sorted(outcome.unhidden) == [
        "previous/chapters/01_devices.20261128-042518.moved-2.ipynb",
        "previous/chapters/01_devices.20261129-080000.ipynb",
        "previous/solutions/notes",
    ]
    assert sorted((work / n).read_text() for n in outcome.unhidden) == [
        "a file with no suffix", "run one", "run two",
    ]  # fmt: skip
    assert taken.read_text() == "kept since"
    assert (work / "previous/chapters/01_devices.20261128-042518.moved-2.ipynb").read_text() == (
        "run one"
    )
    assert sorted(p.name for p in hidden.rglob("*")) == ["link"]  # only what it could not move
    (line,) = W.describe(outcome, tmp_path)
    assert line == (
        "work/: moved 3 kept copies from work/.previous/ (which the lab hides) to "
        "work/previous/, where the lab shows them; nothing was deleted"
    )
    # the next run has nothing to move and says nothing of it
    (hidden / "link").unlink()
    again = W.sync_work(tmp_path)
    assert again.unhidden == [] and W.describe(again, tmp_path) == []
    assert not hidden.exists()


def test_the_readme_names_the_visible_folder_of_kept_copies():
    readme = (W.ROOT / "README.md").read_text()
    assert f"`work/{W.PREVIOUS}/`" in readme and "work/.previous" not in readme
    assert not W.PREVIOUS.startswith(".")  # Jupyter hides dot-folders


# --- a lab running over work/ (issue: `make lab` rewrote copies under open tabs)


def test_a_copy_open_in_a_running_lab_waits_and_is_updated_once_closed(tmp_path):
    make_course(tmp_path)
    W.sync_work(tmp_path)
    work = tmp_path / "work"
    opened, closed = work / "chapters" / "01_devices.ipynb", work / "chapters" / "02_tensors.ipynb"
    autosave(opened)
    before, record = opened.read_bytes(), (work / W.RECORD).read_text()
    change_course(tmp_path, "notebooks/01_devices.ipynb", "x = 'v2'")
    change_course(tmp_path, "notebooks/02_tensors.ipynb", "y = 'v2'")
    outcome = W.sync_work(tmp_path, open_tabs={"chapters/01_devices.ipynb", "chapters/x.ipynb"})
    assert outcome.waiting == ["chapters/01_devices.ipynb"]
    assert outcome.updated == ["chapters/02_tensors.ipynb"]  # a closed copy follows at once
    assert opened.read_bytes() == before and code_of(closed) == "y = 'v2'"
    entry = json.loads((work / W.RECORD).read_text())["copies"]["chapters/01_devices.ipynb"]
    assert entry == json.loads(record)["copies"]["chapters/01_devices.ipynb"]  # still owed
    said = W.describe(outcome, tmp_path)
    assert any(
        line.startswith("work/: 1 copy waits for the course's update")
        and "open in the JupyterLab" in line
        and "chapters/01_devices.ipynb" in line
        and "run `make lab` again" in line
        for line in said
    ), said
    # the tab is closed: the next run updates it
    again = W.sync_work(tmp_path)
    assert again.updated == ["chapters/01_devices.ipynb"] and again.waiting == []
    assert code_of(opened) == "x = 'v2'"


def test_a_lab_that_cannot_say_what_is_open_keeps_every_copy_waiting(tmp_path):
    make_course(tmp_path)
    W.sync_work(tmp_path)
    change_course(tmp_path, "notebooks/01_devices.ipynb", "x = 'v2'")
    change_course(tmp_path, "solutions/01_devices.ipynb", "answer = 'v2'")
    outcome = W.sync_work(tmp_path, open_tabs=W.ALL_OPEN)
    assert sorted(outcome.waiting) == ["chapters/01_devices.ipynb", "solutions/01_devices.ipynb"]
    assert outcome.updated == [] and code_of(tmp_path / "work/chapters/01_devices.ipynb") == "x = 1"
    assert any("did not say which tabs are open" in line for line in W.describe(outcome, tmp_path))


def test_an_older_version_put_back_by_a_save_is_offered_the_update_again(tmp_path):
    # JupyterLab's "File Changed" dialog, Overwrite: the tab's older text goes back on disk
    make_course(tmp_path)
    W.sync_work(tmp_path)
    copy = tmp_path / "work" / "chapters" / "01_devices.ipynb"
    tab = copy.read_text()  # what the open tab holds
    change_course(tmp_path, "notebooks/01_devices.ipynb", "x = 'v2'")
    assert W.sync_work(tmp_path).updated == ["chapters/01_devices.ipynb"]
    copy.write_text(tab)
    autosave(copy)
    outcome = W.sync_work(tmp_path)  # the course has not changed since
    assert outcome.updated == outcome.reverted == ["chapters/01_devices.ipynb"]
    assert code_of(copy) == "x = 'v2'"
    (line,) = W.describe(outcome, tmp_path)
    assert "held an older version of the course" in line
    # a copy the learner changed is still theirs: not mistaken for an older version
    edit_source(copy, "x = 'mine'")
    assert W.sync_work(tmp_path).updated == []
    assert code_of(copy) == "x = 'mine'"


class FakeLab:
    """A server answering /lab/api/workspaces and /api/sessions as JupyterLab does, with a token."""

    def __init__(self, workspaces, sessions, token="secret"):
        import http.server
        import threading

        lab = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802
                lab.seen.append((self.path, self.headers.get("Authorization")))
                body = {"/lab/api/workspaces": workspaces, "/api/sessions": sessions}.get(self.path)
                if self.headers.get("Authorization") != f"token {token}" or body is None:
                    self.send_response(403)
                    self.end_headers()
                    return
                self.send_response(200)
                self.end_headers()
                self.wfile.write(json.dumps(body).encode())

            def log_message(self, *args):
                pass

        self.seen = []
        self.server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
        self.info = {"url": f"http://127.0.0.1:{self.server.server_port}/", "token": token}
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def workspace(*paths):
    data = {"layout-restorer:data": {"main": {"dock": {"widgets": []}}}}
    for path in paths:
        factory = "Notebook" if path.endswith(".ipynb") else "Editor"
        data[f"{factory.lower()}:{path}"] = {"data": {"path": path, "factory": factory}}
    return {"data": data, "metadata": {"id": "default"}}


def test_documents_open_are_the_tabs_of_every_workspace_and_the_sessions(tmp_path):
    lab = FakeLab(
        {"workspaces": {"ids": ["default", "auto-b"], "values": [
            workspace("chapters/01_devices.ipynb"), workspace("exercises/05_ddp_train.py")]}},
        [{"path": "solutions/01_devices.ipynb", "type": "notebook"}],
    )  # fmt: skip
    try:
        assert W.documents_open(lab.info) == {
            "chapters/01_devices.ipynb", "exercises/05_ddp_train.py", "solutions/01_devices.ipynb"
        }  # fmt: skip
        assert {auth for _, auth in lab.seen} == {"token secret"}
        with pytest.raises(OSError):  # a wrong token: it cannot say, and says so
            W.documents_open({**lab.info, "token": "wrong"})
    finally:
        lab.close()


def test_open_in_lab_asks_only_the_labs_over_this_work_folder(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    lab = FakeLab(
        {"workspaces": {"ids": [], "values": [workspace("chapters/02_tensors.ipynb")]}}, []
    )
    servers = [
        {**lab.info, "root_dir": str(tmp_path / "elsewhere")},
        {**lab.info, "root_dir": str(work)},
    ]
    python = tmp_path / "venv-python"  # stands in for .venv/bin/python -c LIST_SERVERS
    python.write_text(f"#!/bin/sh\ncat <<'EOF'\n{json.dumps(servers)}\nEOF\n")
    python.chmod(0o755)
    try:
        assert W.open_in_lab(work, python) == {"chapters/02_tensors.ipynb"}
        assert len(lab.seen) == 2  # the lab over another folder was never asked
        lab.close()
        assert W.open_in_lab(work, python) is W.ALL_OPEN  # it runs but does not answer
    finally:
        lab.close()
    python.write_text("#!/bin/sh\necho '[]'\n")
    assert W.open_in_lab(work, python) == frozenset()
    assert W.open_in_lab(work, tmp_path / "no-such-python") == frozenset()
