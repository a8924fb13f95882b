"""The record of ``work/`` (``work/.course-copies.json``: for each copy, the course file and
the hashes of the copy as it was made) and what ``sync_work`` reports (:class:`Outcome`); an
older ``work/`` brought into this layout (:func:`migrate`), with the copies kept in
``work/.previous/`` moved to ``work/previous/`` (:func:`unhide_previous`).
``tools/work_copies.py`` says why and keeps ``work/``.

Standard library only: it runs before anything is installed.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from copy_render import course_files, entry_for, flat_name, sha256

RECORD = ".course-copies.json"  # in work/
PREVIOUS = "previous"  # in work/: copies replaced by an update, with the learner's outputs
HIDDEN_PREVIOUS = ".previous"  # where earlier versions kept them; the lab cannot open it
RECORD_FORMAT = 2


@dataclass
class Outcome:
    """What :func:`sync_work` did, by path in ``work/``."""

    copied: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)  # unchanged copies that followed the course
    previous: dict[str, str] = field(default_factory=dict)  # of those, the ones kept first: where
    newer: list[str] = field(default_factory=list)  # changed copies, told now of a new version
    kept: list[str] = field(default_factory=list)  # nothing to do, or already told
    moved: list[str] = field(default_factory=list)  # from an older, flat work/
    left: dict[str, str] = field(default_factory=dict)  # flat copies left: both names existed
    unhidden: list[str] = field(default_factory=list)  # moved from work/.previous/ to previous/
    reverted: list[str] = field(default_factory=list)  # of `updated`: were an older version
    waiting: list[str] = field(default_factory=list)  # open in a running lab: not written
    lab_unknown: bool = False  # a lab runs over work/ but did not say what is open


def load_record(work: Path) -> dict:
    path = work / RECORD
    if not path.exists():
        return {}
    try:
        return json.loads(path.read_text())
    except ValueError:  # a damaged record: every copy is then treated as the learner's own
        return {}


def migrate(root: Path, work: Path, outcome: Outcome) -> dict:
    """The record of ``work/`` in this layout, after moving the copies of a flat ``work/``.

    Flat copies are moved to their folder (``work/chapter_01_devices.ipynb``
    to ``work/chapters/01_devices.ipynb``) unless a copy is there already,
    when both are left as they are. An older record held a hash of the course
    file each copy was made from; that version is found (the course's current
    file, or one in git's history) so the copy can be compared with it.
    """
    record = load_record(work)
    if record.get("format") == RECORD_FORMAT:
        return record
    old = record if all(isinstance(v, str) for v in record.values()) else {}
    copies: dict[str, dict] = {}
    for name, source in course_files(root).items():
        flat = work / flat_name(name)
        target = work / name
        if not flat.is_file():
            continue
        if target.exists():
            outcome.left[flat_name(name)] = name
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(flat, target)
        outcome.moved.append(name)
        made_from = old.get(flat_name(name))
        if made_from is None:
            continue  # a copy from before any record: sync_work treats it as the learner's
        original = course_version(root, source, made_from)
        if original is None:  # that version is nowhere to be found: the copy is the learner's
            copies[name] = {"from": source.relative_to(root).as_posix(), "made": made_from}
        else:
            copies[name] = entry_for(original, source, root)
    return {"format": RECORD_FORMAT, "copies": copies}


def unhide_previous(work: Path, outcome: Outcome) -> None:
    """Move what ``work/.previous/`` holds into ``work/previous/``, never over a file there.

    A name taken in ``work/previous/`` gets ``.moved``, ``.moved-2``, ... before its
    suffix. Folders left empty are removed; anything that is not a plain file or a
    folder (a link, say) stays where it is, and so does the folder that holds it.
    """
    hidden = work / HIDDEN_PREVIOUS
    if not hidden.is_dir() or hidden.is_symlink():
        return
    for path in sorted(hidden.rglob("*")):
        if path.is_symlink() or not path.is_file():
            continue
        relative = path.relative_to(hidden)
        target = work / PREVIOUS / relative
        stem, suffix = os.path.splitext(target.name)
        number = 1
        while target.exists() or target.is_symlink():
            tag = "moved" if number == 1 else f"moved-{number}"
            target = target.with_name(f"{stem}.{tag}{suffix}")
            number += 1
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(path, target)
        outcome.unhidden.append(target.relative_to(work).as_posix())
    for folder in sorted((p for p in hidden.rglob("*") if p.is_dir()), reverse=True):
        with contextlib.suppress(OSError):  # not empty: something stays, said by nothing lost
            folder.rmdir()
    with contextlib.suppress(OSError):
        hidden.rmdir()


def course_version(root: Path, source: Path, wanted: str, depth: int = 200) -> bytes | None:
    """The bytes of the version of ``source`` whose SHA-256 is ``wanted``, or ``None``.

    The course's current file, or one of its last ``depth`` versions in git.
    """
    data = source.read_bytes()
    if sha256(data) == wanted:
        return data
    rel = source.relative_to(root).as_posix()
    try:
        commits = subprocess.run(
            ["git", "-C", str(root), "log", f"-n{depth}", "--format=%H", "--", rel],
            capture_output=True, text=True, check=True, timeout=60,
        ).stdout.split()  # fmt: skip
        if not commits:
            return None
        batch = subprocess.run(
            ["git", "-C", str(root), "cat-file", "--batch"],
            input="".join(f"{c}:{rel}\n" for c in commits).encode(),
            capture_output=True, check=True, timeout=120,
        ).stdout  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return None
    position = 0
    while position < len(batch):
        end = batch.index(b"\n", position)
        header = batch[position:end].split()
        position = end + 1
        if len(header) < 3:  # "<name> missing"
            continue
        size = int(header[2])
        blob = batch[position : position + size]
        position += size + 1
        if sha256(blob) == wanted:
            return blob
    return None
