"""requirements.lock (tools/lock.py): one universal lock that installs on every supported platform.

The offline tests read the lock's markers; the ``slow`` ones ask the registry,
through uv, to resolve the lock for each platform and Python (CI reaches the
registry; they skip, saying so, where uv is not installed or cannot reach the
registry it would use).
"""

import os
import re
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.specifiers import SpecifierSet

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import lock  # noqa: E402

GPU_ONLY = re.compile(r"^(nvidia-|cuda-|triton$)")


def pins(platform, python="3.11"):
    return lock.expected_pins(platform, python)


def test_every_line_is_an_exact_pin_and_torch_is_the_tested_pair():
    reqs = lock.lock_requirements()
    assert len(reqs) > 100
    for req in reqs:
        (spec,) = req.specifier
        assert spec.operator == "==", f"{req} is not an exact pin"
    for platform, python in lock.TARGETS:
        found = pins(platform, python)
        assert (found["torch"], found["torchvision"]) == ("2.14.1", "0.29.1"), platform
        assert "+cpu" not in found["torch"]  # the +cpu wheel breaks torchvision::nms at import


def test_cuda_packages_are_pinned_only_where_they_exist():
    linux = {n for n in pins("Linux x86_64") if GPU_ONLY.match(n)}
    assert {"triton", "cuda-bindings", "nvidia-cublas", "nvidia-cudnn-cu13"} <= linux
    assert linux == {n for n in pins("Linux aarch64") if GPU_ONLY.match(n)}
    for platform in ("macOS arm64", "Windows x86_64"):
        for python in lock.PYTHONS:
            stray = [n for n in pins(platform, python) if GPU_ONLY.match(n)]
            assert not stray, f"{platform} would install {stray}, which exist only for Linux"


def test_platform_only_helpers_follow_their_markers():
    assert "pywinpty" in pins("Windows x86_64") and "pywinpty" not in pins("Linux x86_64")
    assert "appnope" in pins("macOS arm64") and "appnope" not in pins("Linux aarch64")
    assert "pexpect" not in pins("Windows x86_64") and "pexpect" in pins("macOS arm64")


def test_setuptools_is_pinned_everywhere_and_satisfies_the_build_requirement():
    # pip install --no-build-isolation -e . builds with the venv's own setuptools,
    # and venvs of Python 3.12+ have none.
    (build,) = [r for r in lock.build_requirements() if r.startswith("setuptools")]
    wanted = SpecifierSet(build.removeprefix("setuptools"))
    for platform, python in lock.TARGETS:
        assert pins(platform, python)["setuptools"] in wanted, (platform, python)


def test_pyproject_ranges_admit_the_lock_and_every_python_tested():
    from packaging.requirements import Requirement

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    for python in lock.PYTHONS:
        assert SpecifierSet(project["requires-python"]).contains(f"{python}.0")
    wanted = project["dependencies"] + [
        r for extra in project["optional-dependencies"].values() for r in extra
    ]
    for platform, python in lock.TARGETS:
        found = pins(platform, python)
        for text in wanted:
            req = Requirement(text)
            name = lock.normalize(req.name)
            assert name in found, f"{name} is declared in pyproject.toml but not pinned"
            assert req.specifier.contains(found[name]), (
                f"lock pins {name}=={found[name]}, not {req}"
            )


def test_environment_yml_installs_the_same_lock_with_a_tested_python():
    text = (ROOT / "environment.yml").read_text()
    (python,) = re.findall(r"^\s+- python=(3\.\d+)\s*$", text, re.M)
    assert python in lock.PYTHONS
    assert "conda-forge" in text
    entries = re.findall(r"^\s+- (.+)$", text.split("- pip:")[1], re.M)
    assert entries == ["-r requirements.lock", "-e ."]
    assert not re.search(r"(torch|torchvision)\s*[=<>]", text)  # no second copy of a pin


def test_marker_environment_rejects_an_unknown_platform():
    with pytest.raises(ValueError, match="platform must be one of"):
        lock.marker_environment("Linux riscv64", "3.12")


def test_make_lock_runs_tools_lock_py():
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^lock: setup\b.*\n\t\$\(VPY\) tools/lock.py$", makefile, re.M)
    assert "Regenerate with `make lock`" in (ROOT / "requirements.lock").read_text()


# What uv says when its index cannot be reached: no connection (a DNS failure, refused,
# timed out: "Failed to fetch: `URL`", "error sending request for url") or --offline.
UNREACHABLE = ("Failed to fetch", "error sending request for url", "network was disabled")


def registry_unreachable(tmp: Path) -> str | None:
    """Why uv cannot reach its package index from here, or None when it can.

    uv resolves one small package the way tools/lock.py runs it (lock.uv: the same
    directory, so the same uv configuration, UV_INDEX_URL, UV_DEFAULT_INDEX, UV_OFFLINE;
    uv reads no PIP_* variable), without its cache, so the index itself answers. Any other
    failure is not the network's: the tests then run and show it.
    """
    probe = tmp / "probe.txt"
    probe.write_text("packaging\n")
    # a network that drops packets would make each of uv's retries wait 30 s
    timeout = {"UV_HTTP_TIMEOUT": os.environ.get("UV_HTTP_TIMEOUT", "15")}
    try:
        lock.uv("pip", "compile", str(probe), "--no-deps", "--no-cache", "--no-header", env=timeout)
    except RuntimeError as error:
        said = str(error).split("\n", 1)[1]
        if any(words in said for words in UNREACHABLE):
            lines = [line.strip() for line in said.splitlines() if line.strip()]
            lines = [line for line in lines if not line.startswith("warning")]
            return "uv cannot reach the package registry: " + " / ".join(lines)
    return None


@pytest.fixture(scope="session")
def registry(tmp_path_factory):
    """Skip, saying why, where uv is missing or cannot reach the registry (asked once)."""
    try:
        lock.uv_command()
    except FileNotFoundError as error:
        pytest.skip(str(error))
    problem = registry_unreachable(tmp_path_factory.mktemp("registry"))
    if problem is not None:
        pytest.skip(problem)


@pytest.mark.slow
@pytest.mark.usefixtures("registry")
def test_lock_resolves_on_every_platform_and_python_against_the_registry():
    problems = {t: p for t, p in lock.check_all().items() if p is not None}
    assert not problems, "\n".join(f"{t}: {p}" for t, p in problems.items())


@pytest.mark.slow
@pytest.mark.usefixtures("registry")
def test_the_check_catches_a_pin_without_wheels_for_a_platform(tmp_path):
    # The lock as it was before markers: cuda-bindings for every platform.
    broken = tmp_path / "requirements.lock"
    broken.write_text("cuda-bindings==13.5.0\n")
    problem = lock.check_target("macOS arm64", "3.12", broken)
    assert problem is not None and "cuda-bindings" in problem and "no wheels" in problem
    # On Linux it resolves, but needs a dependency that this lock does not pin.
    problem = lock.check_target("Linux x86_64", "3.12", broken)
    assert problem is not None and "not in the lock: ['cuda-pathfinder']" in problem


@pytest.mark.slow
@pytest.mark.usefixtures("registry")
def test_lock_is_what_make_lock_makes_from_pyproject():
    diff = lock.lock_is_current()
    assert diff is None, f"requirements.lock is stale, run `make lock`:\n{diff}"
