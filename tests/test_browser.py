"""End to end: the course as a learner meets it, JupyterLab in a real browser.

nbval proves the kernel side; this proves what `make lab` gives a learner. The
test, step by step:

1. copies the course (``notebooks/``, ``exercises/``, ``solutions/``,
   ``scripts/``, ``tools/``) into a temporary git repository and makes the
   learner's ``work/`` there as `make lab` does (``tools/work_copies.py``; a
   downloaded ``data/`` folder, untracked, is linked instead), and adds a
   one-cell notebook with a tqdm bar to ``work/``, since the chapters hide theirs;
2. starts JupyterLab with the same command as `make lab` (``tools/lab.py``:
   127.0.0.1 only, ``port_retries=0``, over ``work/``, opened at chapter 1) from this
   Python environment, on a free loopback port, with a random token
   (``IdentityProvider.token``, so authentication is on and the test knows
   it), and temporary runtime, config, data, settings and workspace folders;
3. checks that a request without the token is refused and that the
   ``d2lgpu`` kernel is registered (failing with a message naming it);
4. drives Debian's Chromium (``/usr/bin/chromium``, never a download) headless
   through Playwright, opens the server's default URL (chapter 1, with the
   file browser at ``chapters/``, no name cut off), then a chapter notebook that draws a plot, a solution
   notebook and the progress-bar notebook, each in a fresh workspace:
   Run > Run All Cells, waits until the kernel is idle and no cell is queued,
   saves with Ctrl+S, saves a screenshot under the test's temp folder (path
   printed), and asserts: every code cell ran once, in order (prompts
   ``[1]:`` to ``[N]:``), no error output in the page or in the saved file, a
   plot image decoded in the page (where the notebook draws one), tqdm's bar
   rendered as a widget (where the notebook shows one), and the session's
   kernel is ``d2lgpu``; where a GPU cell's references come from several GPUs, the other
   GPUs' blocks are collapsed under "Other GPUs" (a closed ``<details>``), hidden until
   the learner opens it;
5. closes the browser and stops the server (SIGTERM, then the process group)
   in all cases, and asserts that no process it started survives.

Cells tagged ``requires-gpu`` (or ``requires-2-gpus``) start with the
``%%requires_gpu`` magic: on a machine without that many GPUs they run as
they are and print why they skipped, which is what a learner sees, and Run
All goes on. The test asserts that message in each of them; no error is
allowed anywhere. With the GPUs they need, they run as written.

A second test reproduces what a learner did in their first hour: it opens a
chapter's copy and leaves it, follows the links between chapter, exercises and
solutions, tries to reach the course's files through the server, then updates
the course as ``git pull`` would: the copies that were only opened follow the
update, and ``git status`` stays clean.

A third test updates the course under open tabs: chapter 1 open with an unsaved edit,
chapter 2 open untouched, a course update to both, then `make lab`'s copy step. Neither
copy is written (the lab's workspaces list them open), the step names both as waiting,
Ctrl+S saves the edit with no "File Changed" dialog, and once the lab is stopped the
untouched copy takes the update and the edited one is kept, with the learner told.

docs/img/lab.png, the README's screenshot, is the chapter screenshot of one
run, copied by hand.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from ddp_helpers.procs import TAG, stop, tagged_pids, wait_gone

from d2lgpu.magics import gpus_needed
from d2lgpu.processes import free_port

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import lab  # noqa: E402
import setup_env  # noqa: E402
import work_copies  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
KERNEL = "d2lgpu"
# Copied into the temporary course: what work/ is made from, and what the notebooks run.
COPIED = ("notebooks", "exercises", "solutions", "scripts", "tools")
RUN_OUTPUTS = ("runs", "checkpoints", "bench-results", "*.pt", "*.pth", "trace*.json")  # .gitignore
# The chapter to run: the first of these that draws a plot (its stored outputs have a PNG).
# Chapter 4 draws one and has a GPU-only cell, in a third of chapter 3's CPU time.
CHAPTERS = ("04_amp.ipynb", "03_networks.ipynb", "06_performance.ipynb")
SOLUTION = "01_devices.ipynb"  # or else the first solution notebook
BAR = "progress_bar.ipynb"  # written by the test, at the root of its temporary copy
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",  # root in a container
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    # without these, Chromium phones home and a closed network refuses it
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
VIEWPORT = {"width": 1280, "height": 800}
SERVER_START_S = 90
PORT_TRIES = 3  # JupyterLab started on a new port when another process took its port first
NOTEBOOK_RUN_S = 240  # chapter 3, the slowest: about 30 s on a busy 2-core CPU
STOP_S = 20

# The DOM of JupyterLab 4 that this test relies on.
MAIN_MENU = "#jp-MainMenu"
RUN_ALL = '.lm-Menu-item[data-command="runmenu:run-all"]'
KERNEL_STATUS = ".jp-Notebook-ExecutionIndicator"  # data-status: idle, busy, ...
CODE_CELL = ".jp-Notebook .jp-CodeCell"
# A code cell of the tab on show: a second notebook's tab, open behind it, holds code cells
# too, and which of the two comes first in the page depends on what JupyterLab restored first.
VISIBLE_CODE_CELL = f"{CODE_CELL} >> visible=true"
PROMPT = ".jp-InputPrompt"  # "[ ]:" not run, "[*]:" queued or running, "[3]:" done
STDERR = '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]'
PLOT = ".jp-OutputArea-output img"
PROGRESS_BAR = ".jp-OutputArea-output .widget-hprogress .progress-bar"
DIRTY_TAB = ".lm-TabBar-tab.jp-mod-dirty"
OTHER_GPUS = ".jp-OutputArea-output details"  # a GPU cell's collapsed references
FILE_BROWSER_ITEM = ".jp-DirListing-item"
FILE_BROWSER_NAME = ".jp-DirListing-itemText"


def visible_gpus() -> int:
    import torch

    return torch.cuda.device_count() if torch.cuda.is_available() else 0


def stored_mimes(notebook: dict) -> set[str]:
    return {
        mime
        for cell in notebook["cells"]
        for output in cell.get("outputs", [])
        for mime in output.get("data", {})
    }


def chapter_notebook() -> str:
    for name in CHAPTERS:
        path = ROOT / "notebooks" / name
        if path.exists() and "image/png" in stored_mimes(json.loads(path.read_text())):
            return f"chapters/{name}"
    pytest.fail(f"none of notebooks/{{{','.join(CHAPTERS)}}} exists with a stored plot")


def solution_notebook() -> str:
    found = sorted(
        (ROOT / "solutions").glob("[0-9]*.ipynb"), key=lambda p: (p.name != SOLUTION, p.name)
    )
    if not found:
        pytest.fail("solutions/ holds no notebook to open")
    return f"solutions/{found[0].name}"


def require_kernel(kernelspecs: dict, name: str = KERNEL) -> None:
    """Fail, naming the kernel, when the server does not offer it."""
    offered = sorted(kernelspecs.get("kernelspecs", {}))
    if name not in offered:
        pytest.fail(
            f"the Jupyter kernel '{name}' is not registered for {sys.executable} "
            f"(offered: {offered}); `make setup` registers it in "
            f".venv/share/jupyter/kernels/{name}",
            pytrace=False,
        )


# --- the server


class Server:
    def __init__(self, root: Path, tmp: Path, autosave_s: int | None = None):
        self.root = root
        self.port = free_port()
        self.token = secrets.token_hex(24)
        self.log = tmp / "jupyterlab.log"
        jupyter = tmp / "jupyter"
        settings = jupyter / "settings"
        # no "Would you like to get notified about Jupyter news?" toast over the notebook
        news = settings / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings"
        news.parent.mkdir(parents=True)
        news.write_text(json.dumps({"fetchNews": "false", "checkForUpdates": False}))
        # the overrides.json that set-up writes into .venv, here in a folder of the test's own
        setup_env.write_lab_settings(tmp, jupyter / "app-settings", autosave_s=autosave_s)
        self.options = [  # what a test needs beside the command of `make lab`
            f"--IdentityProvider.token={self.token}",
            "--ServerApp.open_browser=False",
            f"--LabApp.workspaces_dir={jupyter / 'workspaces'}",
            f"--LabApp.user_settings_dir={settings}",
            f"--LabApp.app_settings_dir={jupyter / 'app-settings'}",
        ]
        env = dict(os.environ)
        env.pop("MPLBACKEND", None)  # the kernel's inline backend draws the plots
        # a learner's mode, not CI's: a claim a busy machine does not show prints what it
        # measured and Run All goes on (d2lgpu.claim); nbval runs every claim strict
        env["D2LGPU_STRICT"] = "0"
        for var, folder in [
            ("JUPYTER_RUNTIME_DIR", "runtime"),
            ("JUPYTER_CONFIG_DIR", "config"),  # no ~/.jupyter settings
            ("JUPYTER_DATA_DIR", "data"),  # so the kernel must come from this environment
            ("IPYTHONDIR", "ipython"),
        ]:
            env[var] = str(jupyter / folder)
        self.env = env
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def command(self) -> list[str]:
        as_root = os.geteuid() == 0
        return lab.lab_command(self.port, as_root=as_root, root_dir=self.root) + self.options

    def start(self, tries: int = PORT_TRIES) -> None:
        """Start JupyterLab and wait until it answers. A free port can be taken by another
        process before JupyterLab binds it (`make lab`'s command takes that port or none):
        then the server starts again on another, at most ``tries`` times in all."""
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                self.command,
                cwd=self.log.parent,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group, to stop it whole
            )
        deadline = time.monotonic() + SERVER_START_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                if tries > 1 and f"port {self.port} is not available" in self.log_tail():
                    print(f"port {self.port} was taken meanwhile: starting on another")
                    self.port = free_port()
                    return self.start(tries - 1)
                pytest.fail(f"JupyterLab exited with {self.process.returncode}:\n{self.log_tail()}")
            with contextlib.suppress(OSError):
                self.get("/api/status")
                return
            time.sleep(0.5)
        pytest.fail(f"JupyterLab did not answer within {SERVER_START_S} s:\n{self.log_tail()}")

    def log_tail(self, lines: int = 40) -> str:
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return "\n".join(text.splitlines()[-lines:])

    def request(self, path: str, method: str = "GET", token: bool = True):
        headers = {"Authorization": f"token {self.token}"} if token else {}
        request = urllib.request.Request(self.url + path, method=method, headers=headers)
        with urllib.request.urlopen(request, timeout=10) as response:
            body = response.read()
        return json.loads(body) if body else None

    def get(self, path: str):
        return self.request(path)

    def stop(self) -> None:
        """SIGTERM: Jupyter then shuts its kernels down and exits (what `make lab` relies on)."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(STOP_S)


# --- the browser


def wait_for_kernel(page, server: Server, relpath: str) -> None:
    """Wait until the notebook's kernel has started and the page shows it idle."""
    deadline = time.monotonic() + SERVER_START_S
    while time.monotonic() < deadline:
        kernels = [s["kernel"] for s in server.get("/api/sessions") if s["path"] == relpath]
        shown = page.evaluate(
            "s => document.querySelector(s)?.getAttribute('data-status')", KERNEL_STATUS
        )
        if kernels and kernels[0]["execution_state"] == "idle" and shown == "idle":
            return
        time.sleep(0.5)
    pytest.fail(f"{relpath}: no idle kernel within {SERVER_START_S} s (sessions: {kernels})")


def wait_for_run_all(page, name: str) -> list[str]:
    """Wait until the kernel is idle and no cell is queued; return the prompts."""
    deadline = time.monotonic() + NOTEBOOK_RUN_S
    settled = 0
    state = {}
    while time.monotonic() < deadline:
        state = page.evaluate(
            """([cell, prompt, status]) => ({
                prompts: [...document.querySelectorAll(cell)].map(
                    c => c.querySelector(prompt)?.textContent.trim() ?? '?'),
                status: document.querySelector(status)?.getAttribute('data-status'),
            })""",
            [CODE_CELL, PROMPT, KERNEL_STATUS],
        )
        busy = state["status"] != "idle" or any(p == "[*]:" for p in state["prompts"])
        settled = 0 if busy else settled + 1
        if settled >= 4:  # idle for 2 s: Run All has finished (or stopped at an error)
            return state["prompts"]
        time.sleep(0.5)
    pytest.fail(f"{name}: Run All did not finish within {NOTEBOOK_RUN_S} s; last state {state}")


def run_notebook(
    page, server: Server, root: Path, relpath: str, shots: Path, gpus: int, bar: bool = False
) -> Path:
    """Open, Run All, save, screenshot and check one notebook; return the screenshot.

    ``bar``: the notebook must show a tqdm progress bar (as a widget, not text).
    """
    name = Path(relpath).name
    path = root / relpath
    original = json.loads(path.read_text())
    skipped = gpu_cells_beyond(path, gpus)
    if skipped:
        print(f"{name}: code cells {skipped} need more GPUs than the {gpus} here")

    workspace = Path(relpath).stem.replace("_", "-")
    page.goto(f"{server.url}/lab/workspaces/{workspace}/tree/{relpath}?token={server.token}")
    page.wait_for_selector(VISIBLE_CODE_CELL, timeout=60_000)
    wait_for_kernel(page, server, relpath)

    # Stored outputs already show [1]:, [2]:, ...: to know that Run All really ran, watch
    # for the "[*]:" it puts on queued cells, however briefly they show it.
    page.evaluate(
        """(prompt) => {
            window.d2lgpuQueued = false;
            new MutationObserver(() => {
                const prompts = [...document.querySelectorAll(prompt)];
                if (prompts.some(p => p.textContent.trim() === '[*]:')) window.d2lgpuQueued = true;
            }).observe(document.body, {subtree: true, childList: true, characterData: true});
        }""",
        PROMPT,
    )
    page.locator(MAIN_MENU).get_by_role("menuitem", name="Run", exact=True).click()
    page.locator(RUN_ALL).click()
    started = time.monotonic()
    page.wait_for_function("() => window.d2lgpuQueued", timeout=10_000)
    prompts = wait_for_run_all(page, name)
    print(f"{name}: Run All took {time.monotonic() - started:.0f} s")

    before = path.stat().st_mtime_ns
    page.locator(".jp-Notebook").first.click(position={"x": 5, "y": 5})  # focus, command mode
    page.keyboard.press("Escape")
    page.keyboard.press("Control+s")
    deadline = time.monotonic() + 30
    while path.stat().st_mtime_ns == before or page.locator(DIRTY_TAB).count():
        assert time.monotonic() < deadline, f"{name}: Ctrl+S did not save within 30 s"
        time.sleep(0.25)

    page_errors = page.evaluate(
        """([cell, stderr]) => [...document.querySelectorAll(cell)].map(
            c => [...c.querySelectorAll(stderr)].map(o => o.textContent)
                 .filter(t => t.includes('Traceback') || t.includes('IProgress not found')))""",
        [CODE_CELL, STDERR],
    )
    widget_errors = page.get_by_text("Error displaying widget").count()
    plots = page.evaluate(
        "(sel) => [...document.querySelectorAll(sel)].filter(i => i.naturalWidth > 0).length",
        PLOT,
    )
    bars = page.locator(PROGRESS_BAR).count()
    others = page.locator(OTHER_GPUS)
    summaries = others.locator("summary").all_text_contents()
    opened = others.evaluate_all("(all) => all.filter(d => d.open).length")
    if summaries:  # the first: hidden, then shown once its summary is clicked
        hidden = others.first.locator("strong").first
        others.first.evaluate("e => e.scrollIntoView({block: 'center'})")
        was_visible = hidden.is_visible()
        others.first.locator("summary").click()
        shown_after = hidden.is_visible()
        others.first.locator("summary").click()  # closed again, as it was saved

    shot = shots / f"{Path(relpath).stem}.png"
    first = page.locator(PLOT).first if plots else page.locator(CODE_CELL).first
    first.evaluate("e => e.scrollIntoView({block: 'center'})")
    time.sleep(0.5)
    page.screenshot(path=shot)
    print(f"{name}: screenshot {shot}")

    sessions = [s for s in server.get("/api/sessions") if s["path"] == relpath]

    saved = json.loads(path.read_text())
    code = [c for c in saved["cells"] if c["cell_type"] == "code"]
    assert len(prompts) == len(code), (
        f"{name}: the page shows {len(prompts)} code cells, the file has {len(code)}"
    )
    # a fresh kernel numbers the cells of one Run All 1, 2, ..., N: each ran once, in order.
    # A collapsed claim cell (source_hidden) shows no prompt; the saved execution counts
    # checked below say that it ran, in its place.
    expected = [f"[{i}]:" for i in range(1, len(code) + 1)]
    hidden = [c["metadata"].get("jupyter", {}).get("source_hidden", False) for c in code]
    not_run = [
        i
        for i, (p, e, h) in enumerate(zip(prompts, expected, hidden, strict=True))
        if p != e and not (h and p == "")
    ]
    stopped = {i: f"{o['ename']}: {o['evalue']}"[:2000] for i, c in enumerate(code)
               for o in c["outputs"] if o["output_type"] == "error"}  # fmt: skip
    assert not not_run, (
        f"{name}: code cells {not_run} did not run in order (prompts {prompts}); "
        f"errors in the saved file: {stopped or 'none'}"
    )
    counts = [c.get("execution_count") for c in code]
    assert counts == list(range(1, len(code) + 1)), f"{name}: saved execution counts {counts}"
    shown = {i: e for i, e in enumerate(page_errors) if e}
    assert not shown, f"{name}: error output in the page, code cells {shown}"
    in_file = {
        i: f"{o['ename']}: {o['evalue']}"
        for i, c in enumerate(code)
        for o in c["outputs"]
        if o["output_type"] == "error"
    }
    assert not in_file, f"{name}: the saved notebook has errors in code cells {in_file}"
    silent = [
        i
        for i in skipped
        if not any(
            "Skipped: this cell needs" in "".join(o.get("text", "")) for o in code[i]["outputs"]
        )
    ]
    assert not silent, f"{name}: GPU-only code cells {silent} did not say why they skipped"
    assert not widget_errors, f"{name}: a widget failed to display"
    if "image/png" in stored_mimes(original):
        assert plots >= 1, f"{name}: it draws a plot, but no plot image rendered in the page"
    widgets = "application/vnd.jupyter.widget-view+json" in stored_mimes(saved)
    assert widgets or not bar, f"{name}: tqdm drew no widget (is ipywidgets in the kernel?)"
    if widgets:
        assert bars >= 1, f"{name}: it shows a progress bar, but no progress widget rendered"
    collapsed = sum(
        "<details" in "".join(o.get("data", {}).get("text/html", ""))
        for c in code
        for o in c["outputs"]
    )
    assert len(summaries) == collapsed, (
        f"{name}: {len(summaries)} collapsed blocks shown, {collapsed} saved"
    )
    if collapsed:
        assert all(s.startswith("Other GPUs: ") for s in summaries) and not opened, summaries
        assert not was_visible and shown_after, f"{name}: the other GPUs' block {was_visible=}"
    assert len(sessions) == 1, f"{name}: expected one session, got {sessions}"
    assert sessions[0]["kernel"]["name"] == KERNEL, f"{name}: session {sessions[0]}"

    server.request(f"/api/sessions/{sessions[0]['id']}", method="DELETE")  # close its kernel
    return shot


def explain_failure(page, shot: Path) -> None:
    """Screenshot the page and print any open dialog: what a learner would have seen."""
    with contextlib.suppress(Exception):
        page.screenshot(path=shot)
        print(f"failure screenshot: {shot}")
        for dialog in page.locator(".jp-Dialog").all_inner_texts():
            print(f"open dialog: {dialog!r}")


def gpu_cells_beyond(path: Path, gpus: int) -> list[int]:
    """Code-cell indices of the cells that need more GPUs than ``gpus``."""
    notebook = json.loads(path.read_text())
    code = [c for c in notebook["cells"] if c["cell_type"] == "code"]
    beyond = []
    for i, cell in enumerate(code):
        if gpus_needed(cell.get("metadata", {}).get("tags", [])) > gpus:
            beyond.append(i)
    return beyond


def write_progress_notebook(path: Path) -> None:
    """A learner's one-cell notebook with tqdm's bar, made the way d2lgpu.training makes it."""
    cell = {
        "cell_type": "code",
        "execution_count": None,
        "id": "progress",
        "metadata": {},
        "outputs": [],
        "source": "from tqdm.auto import tqdm\n\nfor _ in tqdm(range(20), desc='epoch'):\n    pass",
    }
    notebook = {
        "cells": [cell],
        "metadata": {"kernelspec": {"name": KERNEL, "display_name": "Python 3 (d2lgpu)"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path.write_text(json.dumps(notebook, indent=1) + "\n")


def copy_course(root: Path) -> Path:
    """Copy the course into the git repository ``root``, make ``work/``; return ``work/``.

    Downloaded data, untracked, is linked, not copied.
    """
    ignore = shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__", "data", *RUN_OUTPUTS)
    for folder in COPIED:
        if (ROOT / folder).is_dir():
            shutil.copytree(ROOT / folder, root / folder, ignore=ignore)
            if (ROOT / folder / "data").is_dir():
                (root / folder / "data").symlink_to(ROOT / folder / "data")
    shutil.copy(ROOT / ".gitignore", root)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "the course")
    work_copies.sync_work(root)
    return root / "work"


def git(cwd: Path, *args: str) -> str:
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t", "PATH": os.environ["PATH"], "HOME": str(cwd)}  # fmt: skip
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, env=env)
    assert done.returncode == 0, f"git {' '.join(args)}: {done.stderr}"
    return done.stdout


def cut_names(page) -> list[str]:
    """The file browser's names that do not fit their column (shown with an ellipsis)."""
    return page.evaluate(
        """(sel) => [...document.querySelectorAll(sel)]
            .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)""",
        FILE_BROWSER_NAME,
    )


# --- the tests


def test_a_missing_kernel_fails_naming_it():
    with pytest.raises(pytest.fail.Exception, match=f"kernel '{KERNEL}' is not registered"):
        require_kernel({"default": "python3", "kernelspecs": {"python3": {}}})
    require_kernel({"kernelspecs": {KERNEL: {}}})


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_the_server_starts_on_another_port_when_its_port_was_taken(tmp_path, tag, monkeypatch):
    pytest.importorskip("jupyterlab", reason="requires JupyterLab (`make setup` installs it)")
    root = tmp_path / "work"
    root.mkdir()
    monkeypatch.setenv(TAG, tag)
    server = Server(root, tmp_path)
    taken = server.port
    with socket.socket() as holder:  # another process binds the port first
        holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        holder.bind(("127.0.0.1", taken))
        holder.listen()
        try:
            server.start()
            assert server.port != taken and server.get("/api/status") is not None
        finally:
            server.stop()
            if server.process is not None:
                stop(server.process, tag, grace_s=1)
    with socket.socket() as holder:  # with one try, a taken port fails, naming it
        holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # the port it had left
        holder.bind(("127.0.0.1", server.port))
        holder.listen()
        with pytest.raises(pytest.fail.Exception, match=f"port {server.port} is not avail"):
            server.start(tries=1)


@pytest.mark.browser
@pytest.mark.timeout(600)
@pytest.mark.skipif(not CHROMIUM.exists(), reason=f"requires Chromium at {CHROMIUM}")
def test_a_learner_runs_a_chapter_and_a_solution_in_jupyterlab(tmp_path, tag, monkeypatch):
    from playwright.sync_api import sync_playwright

    notebooks = [chapter_notebook(), solution_notebook()]
    course, shots = tmp_path / "course", tmp_path / "screenshots"
    course.mkdir()
    shots.mkdir()
    root = copy_course(course)  # the lab's root: work/
    # the chapters hide tqdm's bar (progress=False): a learner's scratch notebook shows one
    write_progress_notebook(root / BAR)
    notebooks.append(BAR)
    gpus = visible_gpus()
    # Everything the test starts (JupyterLab and its kernels, Playwright's driver, Chromium)
    # inherits this mark, by which it is found, counted and stopped (tests/ddp_helpers/procs.py).
    monkeypatch.setenv(TAG, tag)
    seen: set[int] = set()
    server = Server(root, tmp_path)
    try:
        server.start()
        seen.update(tagged_pids(tag))
        with pytest.raises(urllib.error.HTTPError) as refused:
            server.request("/api/kernelspecs", token=False)
        assert refused.value.code == 403, "JupyterLab answered without the token"
        require_kernel(server.get("/api/kernelspecs"))

        with sync_playwright() as playwright:
            browser = playwright.chromium.launch_persistent_context(
                tmp_path / "chromium-profile",  # on every Chromium command line: tracked
                executable_path=str(CHROMIUM),
                args=CHROMIUM_ARGS,
                headless=True,
                viewport=VIEWPORT,
            )
            try:
                page = browser.new_page()
                page.set_default_timeout(30_000)
                # the default URL of `make lab`: the learner's copy of chapter 1
                page.goto(f"{server.url}/?token={server.token}")
                page.wait_for_selector(FILE_BROWSER_ITEM, timeout=60_000)
                assert page.url.startswith(f"{server.url}/lab/tree/{lab.FIRST_CHAPTER}"), page.url
                listed = page.locator(FILE_BROWSER_ITEM).all_inner_texts()
                assert any(Path(notebooks[0]).name in item for item in listed), listed
                assert not cut_names(page), f"names cut off in the file browser: {cut_names(page)}"
                seen.update(tagged_pids(tag))
                for relpath in notebooks:
                    try:
                        run_notebook(page, server, root, relpath, shots, gpus, relpath == BAR)
                    except BaseException:
                        explain_failure(page, shots / f"{Path(relpath).stem}-failed.png")
                        raise
                    seen.update(tagged_pids(tag))
            finally:
                seen.update(tagged_pids(tag))
                browser.close()
    finally:
        seen.update(tagged_pids(tag))
        server.stop()
        survivors = {pid: command_line(pid) for pid in wait_gone(tag, STOP_S)}
        if server.process is not None:
            stop(server.process, tag, grace_s=1)  # kills what is left, the server's group too
    assert not survivors, f"processes survived the test (now killed): {survivors}"
    assert seen, "no process was tracked: the check above proves nothing"


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
    except OSError:
        return "?"


def local_links(page, relpath: str, timeout_s: float = 60) -> list[dict]:
    """The links to notebooks that JupyterLab rendered in the open notebook ``relpath``.

    JupyterLab resolves a relative link against the notebook's folder into
    ``/files/<path from its root>``, and a click opens ``<path>`` in the lab; a link that
    climbs out of the root (``../../notebooks/x.ipynb``) resolves outside ``/files/``.
    """
    # JupyterLab renders markdown cells a while after the notebook shows, later on a busy
    # machine: asked again until some link is rendered
    deadline = time.monotonic() + timeout_s
    while True:
        links = page.evaluate(
            """(sel) => [...document.querySelectorAll(sel)]
                .filter(a => !a.getAttribute('href').startsWith('#'))  // a heading's own anchor
                .map(a => ({text: a.textContent, path: new URL(a.href).pathname}))
                .filter(a => a.path.endsWith('.ipynb'))""",
            ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-RenderedMarkdown a[href]",
        )
        if links or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert links, f"{relpath}: no link to another notebook rendered within {timeout_s} s"
    return links


def wait_for_session(server: Server, relpath: str, timeout_s: float = SERVER_START_S) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if any(s["path"] == relpath for s in server.get("/api/sessions")):
            return
        time.sleep(0.5)
    paths = [s["path"] for s in server.get("/api/sessions")]
    pytest.fail(f"{relpath} did not open within {timeout_s} s (open: {paths})")


def wait_for_autosave(path: Path, timeout_s: float = 60) -> None:
    """Wait until JupyterLab has saved the notebook it opened: its kernel's language_info."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        with contextlib.suppress(ValueError):
            if "version" in json.loads(path.read_text())["metadata"].get("language_info", {}):
                return
        time.sleep(0.25)
    pytest.fail(f"{path.name}: JupyterLab did not autosave it within {timeout_s} s")


def refused(server: Server, path: str, method: str = "GET", body: dict | None = None) -> int:
    """The HTTP status with which the server refuses ``path``; fails if it serves it."""
    request = urllib.request.Request(
        server.url + path,
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": f"token {server.token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=10):
            pass
    except urllib.error.HTTPError as error:
        return error.code
    pytest.fail(f"{method} {path}: the server answered, a file outside work/ was reached")


@pytest.mark.browser
@pytest.mark.timeout(600)  # a hang guard, above the budget that the test asserts under load
@pytest.mark.skipif(not CHROMIUM.exists(), reason=f"requires Chromium at {CHROMIUM}")
def test_opening_copies_and_their_links_never_touches_the_course(
    tmp_path, tag, monkeypatch, idle_budget
):
    from playwright.sync_api import sync_playwright

    started = time.monotonic()
    course = tmp_path / "course"
    course.mkdir()
    work = copy_course(course)
    chapter, exercise, solution = (
        f"{folder}/01_devices.ipynb" for folder in ("chapters", "exercises", "solutions")
    )
    monkeypatch.setenv(TAG, tag)
    server = Server(work, tmp_path, autosave_s=2)  # JupyterLab's default is 120 s
    try:
        server.start()
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch_persistent_context(
                tmp_path / "chromium-profile",
                executable_path=str(CHROMIUM),
                args=CHROMIUM_ARGS,
                headless=True,
                viewport=VIEWPORT,
            )
            try:
                page = browser.new_page()
                page.set_default_timeout(30_000)
                # 1. open the chapter's copy, touch nothing: JupyterLab saves its language_info
                page.goto(f"{server.url}/lab/tree/{chapter}?token={server.token}")
                page.wait_for_selector(VISIBLE_CODE_CELL, timeout=60_000)
                wait_for_kernel(page, server, chapter)
                wait_for_autosave(work / chapter)
                # 2. every link between chapter, exercises and solutions opens a copy in work/
                seen = {}
                for relpath, link_text, target in [
                    (chapter, "work/exercises/01_devices.ipynb", exercise),
                    (exercise, "Devices", chapter),  # back to the chapter, already open
                    (chapter, "solutions/01_devices.ipynb", solution),
                ]:
                    links = local_links(page, relpath)
                    outside = [link for link in links if not link["path"].startswith("/files/")]
                    assert not outside, f"{relpath}: links leave work/: {outside}"
                    seen[relpath] = sorted({link["path"].removeprefix("/files/") for link in links})
                    page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)").get_by_role(
                        "link", name=link_text
                    ).first.click()
                    wait_for_session(server, target)
                    page.wait_for_selector(
                        f".lm-TabBar-tab.lm-mod-current[title*='{target}']", timeout=30_000
                    )
                assert seen[chapter] == ["exercises/01_devices.ipynb", "solutions/01_devices.ipynb"]
                assert seen[exercise] == ["chapters/01_devices.ipynb"]
                wait_for_autosave(work / exercise)
            except BaseException:
                explain_failure(page, tmp_path / "links-failed.png")
                raise
            finally:
                browser.close()
        # 3. nothing outside work/ can be read or written through the server
        for path in ("notebooks/01_devices.ipynb", "exercises/01_devices.ipynb", ".gitignore"):
            assert refused(server, f"/api/contents/..%2F{path.replace('/', '%2F')}") in (400, 404)
            assert refused(server, f"/api/contents/../{path}") in (400, 404)
            assert refused(server, f"/files/../{path}") in (400, 403, 404)
        saved = {"type": "file", "format": "text", "content": "overwritten"}
        assert refused(server, "/api/contents/..%2Fnotebooks%2Fx.ipynb", "PUT", saved) in (400, 404)
    finally:
        server.stop()
        if server.process is not None:
            stop(server.process, tag, grace_s=1)
    assert git(course, "status", "--porcelain") == ""  # the course is as it was cloned

    # 4. the course is updated (git pull), then `make lab` copies again: the copies that were
    # only opened follow the update
    for rel in ("notebooks/01_devices.ipynb", "exercises/01_devices.ipynb"):
        notebook = json.loads((course / rel).read_text())
        code = next(  # not the set-up cell: the copies hold their own text of it
            c
            for c in notebook["cells"]
            if c["cell_type"] == "code" and "setup" not in c["metadata"].get("tags", [])
        )
        code["source"] = "# updated by the course\n" + "".join(code["source"])
        (course / rel).write_text(json.dumps(notebook, indent=1) + "\n")
    git(course, "commit", "-q", "-am", "an update")
    copy_step = subprocess.run(
        [sys.executable, str(course / "tools" / "work_copies.py")],
        cwd=course,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert copy_step.returncode == 0, copy_step.stderr
    for relpath in (chapter, exercise):
        assert f"work/{relpath}: updated to the course's new version" in copy_step.stdout
        assert "# updated by the course" in (work / relpath).read_text()
    assert "kept" not in copy_step.stdout, copy_step.stdout
    took, budget = time.monotonic() - started, idle_budget(120)
    print(f"took {took:.0f} s (budget {budget:.0f} s: 120 s on an idle machine, for its load)")
    assert took < budget  # the budget is 60 s on an idle machine


def wait_until_open(server: Server, relpaths: set[str], timeout_s: float = 60) -> set[str]:
    """Wait until the lab's workspaces list ``relpaths`` as open (JupyterLab saves its layout
    a moment after a tab opens); return what they list."""
    deadline = time.monotonic() + timeout_s
    info = {"url": server.url, "token": server.token}
    found: set[str] = set()
    while time.monotonic() < deadline:
        found = work_copies.documents_open(info)
        if relpaths <= found:
            return found
        time.sleep(0.5)
    pytest.fail(f"the lab's workspaces list {sorted(found)}, not {sorted(relpaths)}")


@pytest.mark.browser
# A hang guard, as for the other browser tests (600 s): at its limit pytest-timeout's thread
# method ends the worker with no report, which a busy 2-core machine showed at 300 s
@pytest.mark.timeout(600)
@pytest.mark.skipif(not CHROMIUM.exists(), reason=f"requires Chromium at {CHROMIUM}")
def test_a_course_update_never_writes_under_an_open_tab(tmp_path, tag, monkeypatch):
    # The learner has chapter 1 open with an unsaved edit and chapter 2 open untouched,
    # pulls a course update that changes both, and runs `make lab` again (its copy step).
    from playwright.sync_api import sync_playwright

    course = tmp_path / "course"
    course.mkdir()
    work = copy_course(course)
    edited, opened = "chapters/01_devices.ipynb", "chapters/02_tensors.ipynb"
    monkeypatch.setenv(TAG, tag)
    # no autosave: on a slow machine the test outlasts JupyterLab's 120 s interval, and the
    # lab's own save of both tabs is not what is tested (the copy step's writes are)
    server = Server(work, tmp_path, autosave_s=0)
    # the copy step finds the lab as `make lab` would: in Jupyter's runtime folder
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", server.env["JUPYTER_RUNTIME_DIR"])

    def copy_step() -> list[str]:  # what `make lab` runs after set-up (tools/setup_env.py)
        tabs = work_copies.open_in_lab(work, sys.executable)
        return work_copies.describe(work_copies.sync_work(course, open_tabs=tabs), course)

    try:
        server.start()
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch_persistent_context(
                tmp_path / "chromium-profile",
                executable_path=str(CHROMIUM),
                args=CHROMIUM_ARGS,
                headless=True,
                viewport=VIEWPORT,
            )
            page = browser.pages[0] if browser.pages else browser.new_page()
            try:
                for relpath in (opened, edited):  # chapter 1 last: its tab is the current one
                    page.goto(f"{server.url}/lab/tree/{relpath}?token={server.token}")
                    page.wait_for_selector(VISIBLE_CODE_CELL, timeout=60_000)
                    wait_for_kernel(page, server, relpath)
                shown = ".jp-NotebookPanel:not(.lm-mod-hidden)"  # the current tab
                cell = page.locator(f"{shown} .jp-CodeCell .cm-content").nth(1)
                cell.click()
                page.keyboard.press("End")
                page.keyboard.type("  # the learner's unsaved edit")
                page.wait_for_selector(DIRTY_TAB, timeout=10_000)
                wait_until_open(server, {edited, opened})
                on_disk = {p: (work / p).read_bytes() for p in (edited, opened)}

                for rel in ("notebooks/01_devices.ipynb", "notebooks/02_tensors.ipynb"):
                    notebook = json.loads((course / rel).read_text())
                    code = [c for c in notebook["cells"] if c["cell_type"] == "code"][1]
                    code["source"] = "# updated by the course\n" + "".join(code["source"])
                    (course / rel).write_text(json.dumps(notebook, indent=1) + "\n")
                git(course, "commit", "-q", "-am", "an update")
                said = copy_step()
                assert {p: (work / p).read_bytes() for p in on_disk} == on_disk  # not written
                assert any(
                    "2 copies wait for the course's update" in line
                    and edited in line
                    and opened in line
                    for line in said
                ), said

                # Ctrl+S in the tab: the file did not change under it, so no "File Changed"
                # dialog, and the edit is saved
                page.keyboard.press("Escape")
                page.keyboard.press("Control+s")
                deadline = time.monotonic() + 30
                # (chapter 2's tab shows as changed too: JupyterLab filled in language_info)
                while "the learner's unsaved edit" not in (work / edited).read_text():
                    dialogs = page.locator(".jp-Dialog").all_inner_texts()
                    assert not dialogs, f"a dialog over the save: {dialogs}"
                    assert time.monotonic() < deadline, "Ctrl+S did not save within 30 s"
                    time.sleep(0.25)
                time.sleep(1)  # a dialog would open as the save ends
                assert not page.locator(".jp-Dialog").all_inner_texts()
                assert (work / opened).read_bytes() == on_disk[opened]
            except BaseException:
                explain_failure(page, tmp_path / "open-tabs-failed.png")
                raise
            finally:
                browser.close()
    finally:
        server.stop()
        if server.process is not None:
            stop(server.process, tag, grace_s=1)

    # the lab is stopped: the untouched copy takes the update, the edited one is kept and
    # the learner is told where the new version is; nothing is silent, nothing lost
    said = copy_step()
    assert "# updated by the course" in (work / opened).read_text()
    assert any(line.startswith(f"work/{opened}: updated") for line in said), said
    assert "the learner's unsaved edit" in (work / edited).read_text()
    assert any(line.startswith(f"work/{edited}: you changed it") for line in said), said
    assert git(course, "status", "--porcelain") == ""
