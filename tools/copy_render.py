"""What the learner's copy of a course file is: where in ``work/`` it goes
(:func:`course_files`), its bytes (:func:`render_copy`: links rewritten for ``work/``, the
set-up cell as the lab's), and what counts as a change to it (the hashes of its sources and
of its outputs, :func:`entry_for`). ``tools/work_copies.py`` says why and keeps ``work/``.

Standard library only: it runs before anything is installed.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import tomllib
from pathlib import Path

from setup_cell import LAB_SOURCE
from setup_cell import TAG as SETUP_TAG

ROOT = Path(__file__).resolve().parent.parent

# course folder -> the folder of its copies in work/
LAYOUT = {"notebooks": "chapters", "exercises": "exercises", "solutions": "solutions"}
COPIED_SUFFIXES = (".ipynb", ".py")


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
