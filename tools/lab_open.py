"""Which of the learner's copies are open in a JupyterLab running over ``work/``
(:func:`open_in_lab`), so that ``tools/work_copies.py`` never writes one: the documents of
the lab's workspaces and of its kernel sessions (:func:`documents_open`).

Standard library only: it runs before anything is installed.
"""

from __future__ import annotations

import json
import subprocess
import urllib.request
from pathlib import Path

ALL_OPEN = None  # open_tabs when a lab runs over work/ but cannot say what is open

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
