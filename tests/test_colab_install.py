"""The package as a wheel, and the set-up cell run as Colab would run it.

* ``python -m build --wheel`` builds the package (from a copy of the files it is built
  from, so nothing is written into the checkout), with every module and the metadata the
  set-up cell and :mod:`d2lgpu.links` rely on.
* The Colab-style install: a fresh virtual environment in which torch and torchvision
  are already installed and no lock is; the set-up cell installs the wheel into it
  (``$D2LGPU_WHEEL``), and chapters 1 and 2 run top to bottom there in a kernel of that
  environment; torch is the same torch afterwards.
* Without a wheel, the cell clones the repository (here: this checkout's last commit, by
  its file:// URL, in place of the configured GitHub URL) and installs the clone editable,
  so that the chapters find its ``scripts/`` and ``docs/results/``.

"Already installed" without downloading a second torch: the fresh environment gets a
``.pth`` file naming a folder of links to this environment's torch and torchvision, and
to the packages they require (numpy, pillow, sympy, the nvidia libraries, ...), each
with its ``.dist-info``. Python imports them from there and pip and importlib.metadata
see them installed, as a runtime's own torch is on Colab; the rest (matplotlib, tqdm,
cloudpickle, ipykernel and what Jupyter needs) comes from the registry, as pip or uv
would fetch it on a machine without it.
"""

import importlib.metadata
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import nbformat
import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import setup_cell  # noqa: E402

CHAPTERS = ("01_devices.ipynb", "02_tensors.ipynb")
PREINSTALLED = ("torch", "torchvision")


# What pip prints where it cannot reach the package registry at all (a GPU machine without
# network, say): the test then says so and skips, as tests/test_lock.py does for uv.
UNREACHABLE = ("Temporary failure in name resolution", "Failed to establish a new connection")


def run(cmd, **kwargs):
    done = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    said = done.stdout + done.stderr
    if done.returncode and any(words in said for words in UNREACHABLE):
        pytest.skip(
            "pip cannot reach the package registry: "
            + next(
                line.strip() for line in said.splitlines() if any(w in line for w in UNREACHABLE)
            )[:300]
        )
    assert done.returncode == 0, f"{cmd} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """The wheel ``python -m build --wheel`` makes of a copy of the package's sources."""
    if importlib.util.find_spec("build") is None:
        pytest.skip("the build package is not installed (the dev extra has it)")
    src = tmp_path_factory.mktemp("src")
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, src / name)
    shutil.copytree(ROOT / "d2lgpu", src / "d2lgpu", ignore=shutil.ignore_patterns("__pycache__"))
    out = tmp_path_factory.mktemp("dist")
    # --no-isolation: built with this environment's setuptools (the lock pins it), offline
    run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out), str(src)]
    )
    (found,) = out.glob("d2lgpu-*.whl")
    return found


@pytest.mark.slow  # builds the wheel in another process
def test_the_wheel_holds_every_module_and_the_configured_metadata(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    tracked = run(["git", "ls-files", "d2lgpu"], cwd=ROOT).split()
    missing = [p for p in tracked if p not in names]
    assert not missing, f"the wheel lacks {missing}"
    (meta,) = [n for n in names if n.endswith(".dist-info/METADATA")]
    text = zipfile.ZipFile(wheel).read(meta).decode()
    assert f"Project-URL: Repository, {setup_cell.repository_url()}" in text
    requires = [
        Requirement(line.split(": ", 1)[1])
        for line in text.splitlines()
        if line.startswith("Requires-Dist: ")
    ]
    torch = next(r for r in requires if r.name == "torch" and r.marker is None)
    assert str(torch.specifier) == ">={}.{}".format(*setup_cell.torch_floor())


def closure(names):
    """This environment's distributions of ``names`` and of everything they require."""
    found, todo = {}, list(names)
    while todo:
        name = canonicalize_name(todo.pop())
        if name in found:
            continue
        try:
            dist = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue  # a requirement of another platform or Python
        found[name] = dist
        for line in dist.requires or []:
            req = Requirement(line)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append(req.name)
    return found


def preinstall(folder: Path) -> list[str]:
    """Links in ``folder`` to the files of torch, torchvision and what they require."""
    folder.mkdir()
    dists = closure(PREINSTALLED)
    for dist in dists.values():
        site = Path(dist.locate_file(""))
        for entry in {Path(f).parts[0] for f in dist.files or []}:
            if entry in ("..", "__pycache__") or (folder / entry).exists():
                continue
            if (site / entry).exists():
                (folder / entry).symlink_to(site / entry)
    return sorted(dists)


def venv_python(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


ASK_TORCH = (
    "import importlib.metadata as m, torch, torchvision; "
    "print(m.version('torch'), m.version('torchvision'), torch.__file__)"
)


class Fresh:
    """A fresh environment with pip (ensurepip, offline), torch and torchvision, no d2lgpu."""

    def __init__(self, tmp_path):
        venv = tmp_path / "colab"
        run([sys.executable, "-m", "venv", str(venv)])
        self.python = venv_python(venv)
        self.cwd = tmp_path
        # the environment of its processes: not this one's PYTHONPATH nor the checkout's folder
        self.env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
        self.env.pop("D2LGPU_WHEEL", None)
        self.site = Path(self.ask("import sysconfig; print(sysconfig.get_paths()['purelib'])"))
        dists = preinstall(tmp_path / "preinstalled")
        assert {"torch", "torchvision", "numpy"} <= set(dists)
        (self.site / "preinstalled.pth").write_text(f"{tmp_path / 'preinstalled'}\n")
        self.torch = self.ask(ASK_TORCH).split()
        assert self.torch[:2] == [importlib.metadata.version(n) for n in PREINSTALLED]
        assert self.ask("import importlib.util as u; print(u.find_spec('d2lgpu'))") == "None"

    def ask(self, code, cwd=None):
        """What ``code`` prints, run by the environment's Python."""
        return run([self.python, "-c", code], env=self.env, cwd=cwd or self.cwd).strip()

    def assert_torch_unchanged(self):
        assert self.ask(ASK_TORCH).split() == self.torch, "the course replaced torch or torchvision"
        assert not list(self.site.glob("torch-*")) and not (self.site / "torch").exists()


@pytest.mark.slow
@pytest.mark.timeout(1500)
def test_the_set_up_cell_installs_the_wheel_beside_the_torch_there_and_chapters_1_and_2_run(
    wheel, tmp_path, monkeypatch
):
    from tools.kernel_start import NotebookClient  # nbclient's, started again if it died at once

    fresh = Fresh(tmp_path)
    python, site, clean = fresh.python, fresh.site, fresh.env
    # Colab's runtime has a Jupyter kernel: ipykernel from the registry (uv's cache where uv is here)
    uv = shutil.which("uv", path=os.path.dirname(sys.executable))
    if uv:
        run([uv, "pip", "install", "--quiet", "--python", str(python), "ipykernel"], env=clean)
    else:
        run([python, "-m", "pip", "install", "--quiet", "ipykernel"], env=clean)
    kernels = tmp_path / "jupyter" / "kernels" / "colab"
    kernels.mkdir(parents=True)
    spec = {"argv": [str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"],
            "display_name": "Colab-style", "language": "python"}  # fmt: skip
    (kernels / "kernel.json").write_text(json.dumps(spec))

    # The kernel inherits this environment: only the wheel's path and a CPU, as on a laptop
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))
    monkeypatch.setenv("D2LGPU_WHEEL", str(wheel))
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")
    monkeypatch.setenv("MPLBACKEND", "agg")
    for name in ("PYTHONPATH", "VIRTUAL_ENV", "D2LGPU_DEVICE", "D2LGPU_RESULTS_DIR"):
        monkeypatch.delenv(name, raising=False)
    content = tmp_path / "content"  # the notebook's folder: outside the checkout
    content.mkdir()
    printed = {}
    for name in CHAPTERS:
        path = content / name
        shutil.copy(ROOT / "notebooks" / name, path)
        setup_cell.write(path, setup_cell.cell_source())
        nb = nbformat.read(path, as_version=4)
        client = NotebookClient(
            nb, timeout=300, startup_timeout=300, kernel_name="colab",
            resources={"metadata": {"path": str(content)}},
        )  # fmt: skip
        client.execute()  # raises CellExecutionError on the first cell that fails
        setup = next(c for c in nb.cells if c.id == setup_cell.CELL_ID)
        printed[name] = "".join(o.get("text", "") for o in setup.outputs)

    # The first notebook installed the course; the second found it and did nothing
    assert printed[CHAPTERS[0]] == f"installed d2lgpu 0.1.0 beside torch {fresh.torch[0]}\n"
    assert printed[CHAPTERS[1]] == ""
    fresh.assert_torch_unchanged()
    where = fresh.ask("import d2lgpu.links as l; print(l.__file__); print(l.repository_url())")
    module, url = where.split()
    assert Path(module).is_relative_to(site)  # the wheel's copy, not the checkout's
    assert url == setup_cell.repository_url()  # from the wheel's metadata


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_without_a_wheel_the_cell_clones_the_repository_and_the_chapters_find_its_files(
    tmp_path,
):
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    # pip builds the clone in an environment of its own, with setuptools from the registry:
    # where the registry cannot be reached (a GPU machine without network), this skips
    probe = [sys.executable, "-m", "pip", "download", "--no-deps", "--retries", "0"]
    run([*probe, "--timeout", "15", "--dest", str(tmp_path / "probe"), "setuptools"])
    fresh = Fresh(tmp_path)
    content = tmp_path / "content"
    content.mkdir()
    # the cell as written, cloning this checkout's last commit instead of GitHub
    source = setup_cell.cell_source().replace(setup_cell.repository_url(), ROOT.as_uri())
    printed = fresh.ask(source, cwd=content)
    assert printed == f"installed d2lgpu 0.1.0 beside torch {fresh.torch[0]}"
    # a new kernel, after a restart: the editable install finds the clone
    found = fresh.ask(
        "import d2lgpu, d2lgpu.distributed as d, d2lgpu.references as r; print(d2lgpu.__file__);"
        "print(d.course_script('train_ddp.py')); print(r.RESULTS_DIR.is_dir())"
    ).split()
    clone = content / setup_cell.CLONE_DIR
    assert found == [
        str(clone / "d2lgpu" / "__init__.py"),
        str(clone / "scripts" / "train_ddp.py"),
        "True",
    ]
    assert fresh.ask(source, cwd=content) == ""  # run again, it does nothing
    fresh.assert_torch_unchanged()
