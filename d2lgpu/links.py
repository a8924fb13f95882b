"""The course's repository URL, and the "Open in Colab" and "Open in Kaggle" links made from it.

The URL is written once, in ``pyproject.toml``'s ``[project.urls]`` (``Repository = ...``):
a fork changes that line and nothing else. :func:`repository_url` reads it from there in a
checkout of the course, and from the installed package's metadata (``Project-URL``)
where the package came from a wheel (Colab, Kaggle). :func:`colab_url` and
:func:`kaggle_url` turn a notebook's path in the repository into the page that opens it;
``tools/setup_cell.py`` writes the notebooks' set-up cell from the same URL.

What it is not: a GitHub client. Nothing here reaches the network.
"""

from __future__ import annotations

import importlib.metadata
import re
import tomllib
from pathlib import Path, PurePosixPath

__all__ = ["BRANCH", "colab_url", "kaggle_url", "repository_url"]

# The branch the links open: the course's notebooks with their stored outputs.
BRANCH = "main"
_PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"
_GITHUB = re.compile(r"^https://github\.com/([A-Za-z0-9][A-Za-z0-9-]*)/([A-Za-z0-9._-]+?)/?$")


def _from_pyproject(path: Path) -> str | None:
    """``[project.urls] Repository`` of ``path``, if it is the d2lgpu project's file."""
    try:
        project = tomllib.loads(path.read_text())["project"]
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return None
    if project.get("name") != "d2lgpu":
        return None
    return project.get("urls", {}).get("Repository")


def _from_metadata() -> str | None:
    """The installed package's ``Project-URL: Repository, <url>``."""
    try:
        entries = importlib.metadata.metadata("d2lgpu").get_all("Project-URL") or []
    except importlib.metadata.PackageNotFoundError:
        return None
    for entry in entries:
        label, _, url = entry.partition(",")
        if label.strip().lower() == "repository":
            return url.strip()
    return None


def repository_url(pyproject: Path | None = None) -> str:
    """The course's GitHub repository, ``https://github.com/<owner>/<repo>``.

    From ``pyproject`` (default: the checkout's ``pyproject.toml`` next to this package) when
    it is there, else from the installed package's metadata. Raises ``LookupError`` when
    neither names one, and ``ValueError`` when the URL is not a GitHub repository's.
    """
    path = _PYPROJECT if pyproject is None else Path(pyproject)
    url = _from_pyproject(path) or _from_metadata()
    if url is None:
        raise LookupError(
            f"no repository URL: {path} has no [project.urls] Repository and the installed "
            "d2lgpu's metadata has no Project-URL 'Repository'"
        )
    if not _GITHUB.match(url):
        raise ValueError(
            f"the repository URL must be https://github.com/<owner>/<repo>, got {url!r}"
        )
    return url.rstrip("/")


def _blob(path: str | PurePosixPath, repository: str | None) -> str:
    """``github/<owner>/<repo>/blob/<BRANCH>/<path>``: the part both launch pages take."""
    text = str(path)
    parts = PurePosixPath(text).parts
    if not text.endswith(".ipynb") or text.startswith("/") or "\\" in text or ".." in parts:
        raise ValueError(
            "path must be a notebook's path inside the repository, relative and with "
            f"forward slashes (like 'notebooks/01_devices.ipynb'), got {path!r}"
        )
    url = repository_url() if repository is None else repository
    found = _GITHUB.match(url)
    if not found:
        raise ValueError(
            f"repository must be https://github.com/<owner>/<repo>, got {repository!r}"
        )
    owner, repo = found.groups()
    return f"github/{owner}/{repo}/blob/{BRANCH}/{PurePosixPath(text).as_posix()}"


def colab_url(path: str | PurePosixPath, repository: str | None = None) -> str:
    """The page that opens the notebook ``path`` (relative to the repository) in Google Colab."""
    return f"https://colab.research.google.com/{_blob(path, repository)}"


def kaggle_url(path: str | PurePosixPath, repository: str | None = None) -> str:
    """The page that opens the notebook ``path`` (relative to the repository) in a Kaggle notebook."""
    blob = _blob(path, repository).removeprefix("github/")
    return f"https://kaggle.com/kernels/welcome?src=https://github.com/{blob}"
