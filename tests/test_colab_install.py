"""The package as a wheel, and the set-up cell run as Colab would run it.

* ``python -m build --wheel`` builds the package (from a copy of the files it is built
  from, so nothing is written into the checkout), with every module and the metadata the
  set-up cell and :mod:`d2lgpu.links` rely on.
* The Colab-style install: a fresh virtual environment in which torch and torchvision
  are already installed and no lock is; the set-up cell installs the wheel into it
  (``$D2LGPU_WHEEL``), and chapters 1 and 2 run top to bottom there in a kernel of that
  environment; torch is the same torch afterwards.

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


def run(cmd, **kwargs):
    done = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
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


@pytest.mark.slow
@pytest.mark.timeout(1500)
def test_the_set_up_cell_installs_the_wheel_beside_the_torch_there_and_chapters_1_and_2_run(
    wheel, tmp_path, monkeypatch
):
    from nbclient import NotebookClient

    # A fresh environment with pip (ensurepip, offline) and no d2lgpu
    venv = tmp_path / "colab"
    run([sys.executable, "-m", "venv", str(venv)])
    python = venv_python(venv)
    site = Path(
        run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).strip()
    )
    dists = preinstall(tmp_path / "preinstalled")
    assert {"torch", "torchvision", "numpy"} <= set(dists)
    (site / "preinstalled.pth").write_text(f"{tmp_path / 'preinstalled'}\n")
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    before = run([python, "-c", ASK_TORCH], env=clean, cwd=tmp_path).split()
    assert before[:2] == [importlib.metadata.version(n) for n in PREINSTALLED]
    assert (
        run(
            [python, "-c", "import importlib.util as u; print(u.find_spec('d2lgpu'))"],
            env=clean,
            cwd=tmp_path,
        ).strip()
        == "None"
    )
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
    have = before[0]
    assert printed[CHAPTERS[0]] == f"installed d2lgpu 0.1.0 beside torch {have}\n"
    assert printed[CHAPTERS[1]] == ""
    after = run([python, "-c", ASK_TORCH], env=clean, cwd=tmp_path).split()
    assert after == before, "installing the course replaced torch or torchvision"
    assert not list(site.glob("torch-*")) and not (site / "torch").exists()
    where = run(
        [python, "-c", "import d2lgpu.links as l; print(l.__file__); print(l.repository_url())"],
        env=clean, cwd=tmp_path,
    ).split()  # fmt: skip
    assert Path(where[0]).is_relative_to(site)  # the wheel's copy, not the checkout's
    assert where[1] == setup_cell.repository_url()  # from the wheel's metadata
