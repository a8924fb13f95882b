"""The learner's copies in ``work/``: where each course file goes, its links, and updates.

    python3 tools/setup_env.py --copy-work     # what `make lab` runs; prints what it did

``work/`` is the learner's, and the root of the JupyterLab that ``make lab``
starts, so nothing the lab opens or saves is a file that git tracks:

=====================  ==============================  ==========================
course file            the learner's copy              links inside the copy
=====================  ==============================  ==========================
``notebooks/NN.ipynb``  ``work/chapters/NN.ipynb``      ``../chapters/NN.ipynb``
``exercises/NN.*``      ``work/exercises/NN.*``         ``../exercises/NN.ipynb``
``solutions/NN.*``      ``work/solutions/NN.*``         ``../solutions/NN.ipynb``
=====================  ==============================  ==========================

This module owns the rewriting of links: a markdown link that points into
one of those three folders is made to point at the copy (the chapters' only
change: ``notebooks/`` becomes ``chapters/``); a link to the glossary
(``../docs/site/glossary.md#<term>``, ``ONLINE``) opens that page, at the
same anchor, in the course's repository (pyproject.toml's ``[project.urls]
Repository``), which renders it; a link to any other course file
(``../scripts/...``, ``../docs/...``), which the lab cannot open, becomes
plain text naming that file, as does a glossary link where no repository is
configured. It also writes the notebooks' set-up cell as
``tools/setup_cell.py``'s ``LAB_SOURCE``: under ``make lab`` the course
package is installed, so the lab shows two lines of comment, not the
Colab installer.

**When a course update replaces a copy.** A copy counts as *changed* when its
list of cells, or any cell's source, differs from the version it was made
from; metadata, outputs and execution counts do not count (JupyterLab writes
``language_info`` into a notebook it merely opened). When the course's
version changes:

* an unchanged copy follows it; if its outputs differ from those it was made
  with (the learner ran it), the old copy is first kept in ``work/previous/``,
  a folder the lab shows;
* a changed copy is kept as it is, and the learner is told once per new
  course version where that version is;
* a copy whose sources are those of an *older* course version it was once
  made from (JupyterLab's "Overwrite" after an update puts one back) is
  offered the update again, as an unchanged copy is.

While a JupyterLab runs over ``work/``, a copy open in it is never written:
the documents of its workspaces (``/lab/api/workspaces``, open tabs with or
without a kernel) and of its sessions (``/api/sessions``) wait, and the
learner is told how many and which, to take the update once their tabs are
closed or the lab stopped. A lab that runs but does not answer keeps every
copy waiting.

``work/.course-copies.json`` records, for each copy, the course file and a
hash of the copy as it was made, of its sources and of its outputs. Older
``work/`` folders (flat: ``work/chapter_01_devices.ipynb``,
``work/01_devices.ipynb``) are moved into this layout, losing nothing, and so
are the copies kept in ``work/.previous/`` by earlier versions (Jupyter hides
dot-folders), into ``work/previous/``.

The pieces: ``tools/copy_render.py`` (which file goes where, its links, what counts as a
change), ``tools/work_record.py`` (the record, and older ``work/`` folders) and
``tools/lab_open.py`` (what a running lab has open); this module is the update and what the
learner reads of it.

Standard library only: it runs before anything is installed.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from copy_render import (
    LAYOUT,
    ROOT,
    course_files,
    entry_for,
    outputs_hash,
    render_copy,
    repository_url,
    rewrite_links,
    sha256,
    sources_hash,
)
from lab_open import ALL_OPEN, documents_open, open_in_lab
from work_record import (
    PREVIOUS,
    RECORD,
    RECORD_FORMAT,
    Outcome,
    migrate,
    unhide_previous,
)

# What other tools and the tests use from here, wherever it is written
__all__ = [
    "ALL_OPEN",
    "LAYOUT",
    "PREVIOUS",
    "RECORD",
    "RECORD_FORMAT",
    "ROOT",
    "Outcome",
    "course_files",
    "describe",
    "documents_open",
    "main",
    "open_in_lab",
    "render_copy",
    "repository_url",
    "rewrite_links",
    "sha256",
    "sync_work",
]


def keep_previous(work: Path, name: str, stamp: str) -> str:
    """Move the copy ``name`` into ``work/previous/``, never over another; return where."""
    folder, base = name.rsplit("/", 1)
    stem, dot, suffix = base.rpartition(".")
    target = work / PREVIOUS / folder / f"{stem}.{stamp}{dot}{suffix}"
    number = 1
    while target.exists():
        number += 1
        target = work / PREVIOUS / folder / f"{stem}.{stamp}-{number}{dot}{suffix}"
    target.parent.mkdir(parents=True, exist_ok=True)
    os.replace(work / name, target)
    return target.relative_to(work).as_posix()


OLDER_KEPT = 50  # how many older versions a copy's record remembers


def sync_work(
    root: Path = ROOT, work: Path | None = None, open_tabs: set[str] | None = frozenset()
) -> Outcome:
    """Bring ``work/`` up to date with the course, never losing a learner's file.

    For each course file, with the record of the copy made from it:

    * no copy: copy it (``copied``; also when the learner deleted or renamed one);
    * the copy the course gives now is the one already made: nothing (``kept``);
    * the course's version changed, and the copy's sources are those it was
      made with (or those of the new version): replace it (``updated``); if
      its outputs differ from those it was made with, the old copy goes to
      ``work/previous/`` first (``previous``);
    * the copy's sources are those of an older version it was made from
      before (the record keeps them): replace it the same way (``updated``
      and ``reverted``), even when the course has not changed since;
    * the course's version changed and the learner changed the copy: keep it
      (``newer`` the first time for this course version, then ``kept``).

    ``open_tabs`` are the paths in ``work/`` open in a lab running over it
    (:func:`open_in_lab`), or :data:`ALL_OPEN` when one runs and cannot say:
    a copy there that would be replaced is left as it is (``waiting``), its
    record unchanged, so that the next run offers the update again.

    A copy without a record (its record deleted, or put there by hand) counts
    as made from the course's current version: changed if its sources differ.
    """
    work = root / "work" if work is None else work
    outcome = Outcome(lab_unknown=open_tabs is ALL_OPEN)
    record = migrate(root, work, outcome)
    unhide_previous(work, outcome)
    copies = record["copies"]
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for name, source in course_files(root).items():
        target = work / name
        new = render_copy(source)
        made = entry_for(new, source, root)
        entry = copies.get(name)
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(new)
            copies[name] = made
            outcome.copied.append(name)
            continue
        mine = target.read_bytes()
        sources = sources_hash(mine, source.suffix)
        older = entry.get("older", []) if entry else []
        reverted = sources is not None and sources != made["sources"] and sources in older
        known = ((entry or {}).get("sources"), made["sources"])  # made with, or the course's now
        follows = reverted or (sources is not None and sources in known)
        if entry is None:  # no record: as if made from this version, changed or not
            copies[name] = made
            outcome.kept.append(name)
        elif entry.get("made") == made["made"] and not reverted:
            outcome.kept.append(name)
        elif follows:
            if open_tabs is ALL_OPEN or name in open_tabs:
                outcome.waiting.append(name)
                continue
            if mine != new and outputs_hash(mine, source.suffix) != entry.get("outputs"):
                outcome.previous[name] = keep_previous(work, name, stamp)
            target.write_bytes(new)
            seen = [h for h in [*older, entry.get("sources")] if h and h != made["sources"]]
            copies[name] = {**made, "older": list(dict.fromkeys(seen))[-OLDER_KEPT:]}
            outcome.updated.append(name)
            if reverted:
                outcome.reverted.append(name)
        elif entry.get("told") == made["made"]:
            outcome.kept.append(name)
        else:
            entry["told"] = made["made"]
            outcome.newer.append(name)
    if copies:
        work.mkdir(parents=True, exist_ok=True)
        text = json.dumps(record, indent=1, sort_keys=True) + "\n"
        (work / RECORD).write_text(text)
    return outcome


# --- what the learner reads


def describe(outcome: Outcome, root: Path = ROOT) -> list[str]:
    """What :func:`sync_work` did, in plain words; no line when it did nothing."""
    lines = []
    if outcome.moved:
        lines.append(
            f"work/: moved your {len(outcome.moved)} copies into work/chapters/, "
            "work/exercises/ and work/solutions/ (this version's layout); nothing was deleted"
        )
    if outcome.unhidden:
        n = len(outcome.unhidden)
        lines.append(
            f"work/: moved {n} kept cop{'y' if n == 1 else 'ies'} from work/.previous/ (which "
            "the lab hides) to work/previous/, where the lab shows them; nothing was deleted"
        )
    for flat, name in outcome.left.items():
        lines.append(
            f"work/{flat}: left where it is, since work/{name} exists too; both are yours, "
            f"and course updates go to work/{name}"
        )
    if outcome.copied:
        counts = {folder: 0 for folder in LAYOUT.values()}
        for name in outcome.copied:
            counts[name.split("/", 1)[0]] += 1
        nouns = {"chapters": "chapter", "exercises": "exercise file", "solutions": "solution file"}
        what = ", ".join(
            f"{n} {nouns[folder]}{'' if n == 1 else 's'}" for folder, n in counts.items() if n
        )
        others = len(outcome.kept) + len(outcome.newer) + len(outcome.updated)
        lines.append(
            f"work/: copied {what} for you to edit and save"
            + (f"; your {others} other copies are kept as they are" if others else "")
        )
    files = course_files(root)
    for name in outcome.updated:
        line = f"work/{name}: updated to the course's new version (you had not changed its cells)"
        if name in outcome.reverted:
            line = (
                f"work/{name}: held an older version of the course (a save from a tab opened "
                "before an update puts one back); updated to the course's version"
            )
        if name in outcome.previous:
            line += f"; the copy with your outputs is work/{outcome.previous[name]}"
        lines.append(line)
    if outcome.waiting:
        n = len(outcome.waiting)
        why = (
            "a JupyterLab runs over work/ and did not say which tabs are open"
            if outcome.lab_unknown
            else "they are open in the JupyterLab that runs over work/"
        )
        lines.append(
            f"work/: {n} cop{'y waits' if n == 1 else 'ies wait'} for the course's update, left "
            f"as they are because {why}: " + ", ".join(outcome.waiting) + ". Save and close "
            "their tabs (or stop the lab), then run `make lab` again to take the update"
        )
    for name in outcome.newer:
        source = files[name].relative_to(root).as_posix()
        lines.append(
            f"work/{name}: you changed it, so it is kept as it is; the course has a newer "
            f"version, {source}. To start again from it, rename your copy and run `make lab`: "
            "it copies the new one beside yours. (Said once per new version.)"
        )
    return lines


def main() -> int:
    for line in describe(sync_work(ROOT)):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
