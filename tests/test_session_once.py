"""tests/session_once.py: a set-up shared by the pytest-xdist processes of one session."""

import pytest
from session_once import once_per_session, shared_folder


class Factory:
    """What once_per_session uses of pytest's tmp_path_factory."""

    def __init__(self, base):
        self.base = base

    def getbasetemp(self):
        return self.base


@pytest.fixture
def worker(tmp_path, monkeypatch):
    """One pytest-xdist process of a session whose shared folder is tmp_path."""
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw0")
    (tmp_path / "popen-gw0").mkdir()
    return Factory(tmp_path / "popen-gw0")


def test_the_set_up_runs_once_and_every_caller_gets_the_same_json(worker, tmp_path):
    calls = []

    def make(folder):
        calls.append(folder)
        (folder / "made.txt").write_text("files the set-up wrote")
        return {"steps": (1, 2), "seconds": 1.5}

    other = Factory(tmp_path / "popen-gw1")  # another process of the same session
    first = once_per_session(worker, "setup", make)
    second = once_per_session(other, "setup", make)
    assert len(calls) == 1 and calls[0] == tmp_path / "setup"
    assert first == second == (tmp_path / "setup", {"steps": [1, 2], "seconds": 1.5})
    assert (first[0] / "made.txt").read_text() == "files the set-up wrote"
    assert shared_folder(other) == tmp_path


def test_a_failed_set_up_is_not_made_again_and_its_error_reaches_the_others(worker):
    calls = []

    def make(folder):
        calls.append(folder)
        raise ValueError("torchrun failed with exit code 1")

    with pytest.raises(ValueError, match="exit code 1"):
        once_per_session(worker, "setup", make)
    with pytest.raises(
        RuntimeError,
        match="'setup' failed in another pytest process: "
        "ValueError: torchrun failed with exit code 1",
    ):
        once_per_session(worker, "setup", make)
    assert len(calls) == 1


def test_without_pytest_xdist_the_base_folder_is_shared(tmp_path, monkeypatch):
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    assert shared_folder(Factory(tmp_path)) == tmp_path
    assert once_per_session(Factory(tmp_path), "n", lambda folder: 3) == (tmp_path / "n", 3)
