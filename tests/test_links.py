"""d2lgpu.links: one configured repository URL, and the Colab and Kaggle links made from it."""

import importlib.metadata
import tomllib
from pathlib import Path

import pytest

from d2lgpu import links

ROOT = Path(__file__).resolve().parent.parent


def configured():
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["urls"]["Repository"]


def test_the_checkout_reads_the_url_from_pyproject():
    assert links.repository_url() == configured()
    assert configured().startswith("https://github.com/")


def test_the_links_open_the_notebook_on_the_main_branch():
    repo = "https://github.com/someone/fork"
    assert links.colab_url("notebooks/01_devices.ipynb", repo) == (
        "https://colab.research.google.com/github/someone/fork/blob/main/notebooks/01_devices.ipynb"
    )
    assert links.kaggle_url("exercises/04_amp.ipynb", repo) == (
        "https://kaggle.com/kernels/welcome?src="
        "https://github.com/someone/fork/blob/main/exercises/04_amp.ipynb"
    )


def test_without_a_repository_the_links_use_the_configured_one():
    owner_repo = configured().removeprefix("https://github.com/")
    assert links.colab_url("notebooks/02_tensors.ipynb").endswith(
        f"/github/{owner_repo}/blob/main/notebooks/02_tensors.ipynb"
    )
    assert f"src=https://github.com/{owner_repo}/blob/main/" in links.kaggle_url(
        "notebooks/02_tensors.ipynb"
    )


def test_a_fork_changes_pyproject_alone(tmp_path):
    text = (ROOT / "pyproject.toml").read_text().replace(configured(), "https://github.com/me/mine")
    (tmp_path / "pyproject.toml").write_text(text)
    assert links.repository_url(tmp_path / "pyproject.toml") == "https://github.com/me/mine"


def test_an_installed_wheel_reads_the_url_from_its_metadata(tmp_path, monkeypatch):
    class Meta:
        def get_all(self, key):
            assert key == "Project-URL"
            return ["Homepage, https://example.org", "Repository, https://github.com/me/wheel"]

    monkeypatch.setattr(importlib.metadata, "metadata", lambda name: Meta())
    # no pyproject.toml next to an installed package
    assert links.repository_url(tmp_path / "missing.toml") == "https://github.com/me/wheel"


def test_no_url_anywhere_says_where_it_looked(tmp_path, monkeypatch):
    def missing(name):
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "metadata", missing)
    with pytest.raises(LookupError, match=r"\[project.urls\] Repository.*Project-URL"):
        links.repository_url(tmp_path / "missing.toml")


def test_a_url_that_is_not_a_github_repository_is_refused(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "d2lgpu"\n[project.urls]\nRepository = "https://gitlab.com/a/b"\n'
    )
    with pytest.raises(ValueError, match="must be https://github.com/<owner>/<repo>"):
        links.repository_url(tmp_path / "pyproject.toml")
    with pytest.raises(ValueError, match="repository must be"):
        links.colab_url("notebooks/01_devices.ipynb", "https://github.com/only-owner")


@pytest.mark.parametrize(
    "path",
    ["/notebooks/01_devices.ipynb", "notebooks/../x.ipynb", "notebooks\\a.ipynb", "README.md"],
)
def test_a_path_that_is_not_a_notebook_in_the_repository_is_refused(path):
    with pytest.raises(ValueError, match="path must be a notebook's path inside the repository"):
        links.colab_url(path, "https://github.com/a/b")
