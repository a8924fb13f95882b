"""d2lgpu._disk_cache: the planner's measurements, read back by the next Python."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from d2lgpu import _disk_cache
from d2lgpu._disk_cache import CACHE_ENV_VAR, cache_dir, disk_cached

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_ENV_VAR, str(tmp_path / "cache"))
    monkeypatch.delenv("MUTANT_UNDER_TEST", raising=False)
    return tmp_path / "cache"


def counted(sources=("_disk_cache.py",)):
    calls = []

    @disk_cached(*sources)
    def measure(n, *, twice=False):
        calls.append((n, twice))
        return {"bytes": n * (2 if twice else 1)}

    return measure, calls


def test_an_answer_is_measured_once_then_read_back(folder):
    measure, calls = counted()
    assert measure(3) == {"bytes": 3} and measure(3, twice=True) == {"bytes": 6}
    again, again_calls = counted()  # a fresh function, as in the next Python
    assert again(3) == {"bytes": 3} and again(3, twice=True) == {"bytes": 6}
    assert calls == [(3, False), (3, True)] and again_calls == []
    assert again(4) == {"bytes": 4} and again_calls == [(4, False)]  # other arguments: measured
    [stored] = folder.iterdir()
    assert len(json.loads(stored.read_text())) == 3


def test_other_code_or_another_torch_measures_afresh(folder, monkeypatch, tmp_path):
    measure, _ = counted()
    measure(5)
    other, calls = counted(sources=("_disk_cache.py", "_validate.py"))
    assert other(5) == {"bytes": 5} and calls == [(5, False)]
    monkeypatch.setattr(_disk_cache.torch, "__version__", "0.0.1")
    newer, calls = counted()
    assert newer(5) == {"bytes": 5} and calls == [(5, False)]
    assert len(list(folder.iterdir())) == 3


@pytest.mark.parametrize("setting", ["off", " OFF ", "mutant"])
def test_off_and_a_mutation_run_measure_every_time(folder, monkeypatch, setting):
    if setting == "mutant":
        monkeypatch.setenv("MUTANT_UNDER_TEST", "d2lgpu._plan_stage.x__mutmut_1")
    else:
        monkeypatch.setenv(CACHE_ENV_VAR, setting)
    assert cache_dir() is None
    measure, calls = counted()
    measure(2), measure(2)
    assert calls == [(2, False), (2, False)] and not folder.exists()


def test_the_default_folder_follows_xdg_cache_home(monkeypatch, tmp_path):
    monkeypatch.delenv(CACHE_ENV_VAR, raising=False)
    monkeypatch.delenv("MUTANT_UNDER_TEST", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_dir() == tmp_path / "d2lgpu"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert cache_dir() == Path.home() / ".cache" / "d2lgpu"


def test_a_damaged_file_or_an_unwritable_folder_only_costs_a_measurement(
    folder, tmp_path, monkeypatch
):
    measure, calls = counted()
    measure(7)
    [stored] = folder.iterdir()
    stored.write_text("{not json")
    assert measure(7) == {"bytes": 7} and len(calls) == 2
    assert json.loads(stored.read_text()) == {repr(((7,), [])): {"bytes": 7}}  # repaired
    blocked = tmp_path / "a file"
    blocked.write_text("")
    monkeypatch.setenv(CACHE_ENV_VAR, str(blocked / "cache"))  # under a file: cannot be made
    unwritable, calls = counted()
    assert unwritable(7) == {"bytes": 7} and unwritable(7) == {"bytes": 7} and len(calls) == 2


def test_the_planners_measurements_are_the_same_read_back(folder):
    # A second Python reads what the first measured, and gets the same numbers.
    code = (
        "import json, sys; from d2lgpu import _plan_stage as s; from d2lgpu.llama import "
        "DecoderConfig as C; c = C(vocab=64, dim=32, n_layers=2, n_heads=4, n_kv_heads=2, "
        "ffn_dim=64, seq_len=16); print(json.dumps([s.activation_peak(c, 2, 0, 1, 1, 3, True), "
        "s.state_bytes(c, 2, 0, 1, 'fsdp2', 2)]))"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    runs = [
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
        for _ in range(2)
    ]
    assert all(r.returncode == 0 for r in runs), runs[0].stderr[-2000:]
    first, second = (json.loads(r.stdout.strip().splitlines()[-1]) for r in runs)
    assert first == second and first[0] > 0 and first[1]["params"] > 0
    names = sorted(p.name.split("-")[0] for p in folder.iterdir())
    assert names == ["d2lgpu._plan_stage.activation_peak", "d2lgpu._plan_stage.state_bytes"]
