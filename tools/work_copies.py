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

Standard library only: it runs before anything is installed.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import re
import subprocess
import time
import tomllib
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from setup_cell import LAB_SOURCE
from setup_cell import TAG as SETUP_TAG

ROOT = Path(__file__).resolve().parent.parent

# course folder -> the folder of its copies in work/
LAYOUT = {"notebooks": "chapters", "exercises": "exercises", "solutions": "solutions"}
COPIED_SUFFIXES = (".ipynb", ".py")
RECORD = ".course-copies.json"  # in work/
PREVIOUS = "previous"  # in work/: copies replaced by an update, with the learner's outputs
HIDDEN_PREVIOUS = ".previous"  # where earlier versions kept them; the lab cannot open it
RECORD_FORMAT = 2


# --- which file goes where


def course_files(root: Path = ROOT) -> dict[str, Path]:
    """``{path in work/: course file}``, e.g. ``chapters/01_devices.ipynb: notebooks/...``.

    The notebooks and Python files at the top of ``notebooks/``, ``exercises/``
    and ``solutions/``; nothing in their sub-folders (a downloaded ``data/``).
    """
    files = {}
    for folder, copies in LAYOUT.items():
        for path in sorted((root / folder).glob("*")):
            if path.is_file() and path.suffix in COPIED_SUFFIXES:
                files[f"{copies}/{path.name}"] = path
    return files


def flat_name(name: str) -> str:
    """Where an older, flat ``work/`` kept the copy ``name`` (see :func:`migrate`)."""
    folder, base = name.split("/", 1)
    return f"chapter_{base}" if folder == "chapters" else base


# --- links


# [text](../folder/rest) and ![alt](../folder/rest), up to the closing parenthesis
LINK = re.compile(r"(!?)\[([^\]\n]*)\]\(\.\./([^)\s]+)\)")
# Course files a learner reads on the repository's web page, which renders them with an
# anchor per heading: a link to one opens it there. The branch is d2lgpu.links.BRANCH's.
ONLINE = ("docs/site/glossary.md",)
BRANCH = "main"


@functools.cache
def repository_url(root: Path = ROOT) -> str | None:
    """pyproject.toml's ``[project.urls] Repository`` (no trailing slash), or None."""
    try:
        url = tomllib.loads((root / "pyproject.toml").read_text())["project"]["urls"]
        return url["Repository"].rstrip("/") or None
    except (OSError, KeyError, TypeError, tomllib.TOMLDecodeError):
        return None


def rewrite_links(markdown: str, repository: str | None = None) -> str:
    """The links of one markdown cell, as they must read in a copy inside ``work/``.

    ``repository``: the course's repository URL for the links to ``ONLINE`` pages, by
    default the configured one (:func:`repository_url`)."""
    repository = repository or repository_url()

    def replace(match: re.Match) -> str:
        bang, text, target = match.groups()
        folder, _, rest = target.partition("/")
        if folder in LAYOUT and rest:
            return f"{bang}[{text}](../{LAYOUT[folder]}/{rest})"
        path = target.split("#", 1)[0]
        if path in ONLINE and repository:
            return f"{bang}[{text}]({repository}/blob/{BRANCH}/{target})"
        if text.strip("`") == path:
            return f"{text} (in the course's folder, outside `work/`)"
        return f"{text} (the course's `{path}`)"

    return LINK.sub(replace, markdown)


def render_copy(source: Path) -> bytes:
    """The bytes of the learner's copy of the course file ``source``."""
    data = source.read_bytes()
    if source.suffix != ".ipynb":
        return data
    notebook = json.loads(data)
    changed = False
    for cell in notebook.get("cells", []):
        metadata = cell.get("metadata", {})
        if cell.get("cell_type") == "code" and SETUP_TAG in metadata.get("tags", []):
            # the lab has d2lgpu installed: its copy says so in 2 lines, not the installer
            cell["source"] = LAB_SOURCE.splitlines(keepends=True)
            metadata.get("jupyter", {}).pop("source_hidden", None)  # 2 lines: nothing to fold
            if metadata.get("jupyter") == {}:
                del metadata["jupyter"]
            changed = True
        if cell.get("cell_type") != "markdown":
            continue
        text = _source(cell)
        new = rewrite_links(text)
        if new != text:
            cell["source"] = new.splitlines(keepends=True)
            changed = True
    if not changed:
        return data
    # the layout nbformat writes: one-space indent, non-ASCII kept, a final newline
    return (json.dumps(notebook, indent=1, ensure_ascii=False) + "\n").encode()


# --- what counts as a change


def _source(cell: dict) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def _digest(value) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sources_hash(data: bytes, suffix: str) -> str | None:
    """A hash of what the learner writes: each cell's type and source, in order.

    Metadata, outputs and execution counts are left out. For a file that is
    not a notebook, its bytes. ``None`` for a notebook that does not parse.
    """
    if suffix != ".ipynb":
        return sha256(data)
    try:
        cells = json.loads(data)["cells"]
        return _digest([[cell.get("cell_type"), _source(cell)] for cell in cells])
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def outputs_hash(data: bytes, suffix: str) -> str | None:
    """A hash of a notebook's outputs and execution counts (``""`` for other files)."""
    if suffix != ".ipynb":
        return ""
    try:
        cells = json.loads(data)["cells"]
        return _digest([[c.get("outputs"), c.get("execution_count")] for c in cells])
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def entry_for(data: bytes, source: Path, root: Path) -> dict:
    """The record of a copy made with the bytes ``data`` from the course file ``source``."""
    return {
        "from": source.relative_to(root).as_posix(),
        "made": sha256(data),
        "sources": sources_hash(data, source.suffix),
        "outputs": outputs_hash(data, source.suffix),
    }


# --- the update


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


ALL_OPEN = None  # open_tabs when a lab runs over work/ but cannot say what is open
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


# --- a lab running over work/

# Run by the course's .venv (this module runs before anything is installed, with the
# system's Python): the servers whose files in Jupyter's runtime folder name a live process.
LIST_SERVERS = (
    "import json; from jupyter_server.serverapp import list_running_servers; "
    "print(json.dumps(list(list_running_servers())))"
)


def _get(info: dict, path: str, timeout_s: float = 10):
    url = f"{info['url'].rstrip('/')}{path}"
    request = urllib.request.Request(url, headers={"Authorization": f"token {info['token']}"})
    with urllib.request.urlopen(request, timeout=timeout_s) as answer:
        return json.loads(answer.read())


def documents_open(info: dict) -> set[str]:
    """The paths open in the lab ``info`` names: in its workspaces and its kernel sessions.

    A workspace lists each open tab as ``"notebook:<path>"`` or ``"editor:<path>"`` with
    ``{"data": {"path": ..., "factory": ...}}``, whether or not a kernel runs; sessions
    list only the documents with a kernel. Raises OSError or ValueError if it cannot say.
    """
    found = set()
    for workspace in _get(info, "/lab/api/workspaces")["workspaces"]["values"]:
        for value in workspace.get("data", {}).values():
            data = value.get("data") if isinstance(value, dict) else None
            if isinstance(data, dict) and "factory" in data and isinstance(data.get("path"), str):
                found.add(data["path"])
    for session in _get(info, "/api/sessions"):
        found.add(session.get("path") or session.get("notebook", {}).get("path", ""))
    return {path.lstrip("/") for path in found if path}


def open_in_lab(work: Path, python: Path | str) -> set[str] | None:
    """The paths in ``work/`` open in a lab running over it; ``frozenset()`` when none runs.

    ``python`` is the course's .venv, which has jupyter_server. :data:`ALL_OPEN`
    (``None``) when a lab runs over ``work/`` but does not answer.
    """
    try:
        done = subprocess.run(
            [str(python), "-c", LIST_SERVERS], capture_output=True, text=True, timeout=60
        )
        servers = json.loads(done.stdout) if done.returncode == 0 else []
    except (OSError, subprocess.SubprocessError, ValueError):
        servers = []  # no .venv, or no Jupyter in it: no lab can run over work/
    found: set[str] = set()
    for info in servers:
        try:
            if Path(info["root_dir"]).resolve() != work.resolve():
                continue
        except (OSError, KeyError, TypeError):
            continue
        try:
            found |= documents_open(info)
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return ALL_OPEN
    return frozenset(found)


# --- older work/ folders


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
