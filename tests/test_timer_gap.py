"""tools/timer_gap.py: its arguments, and what it says where torch sees no GPU."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import timer_gap  # noqa: E402


def test_a_size_below_one_is_named(capsys):
    with pytest.raises(SystemExit):
        timer_gap.main(["--n", "0"])
    assert "--n must be >= 1, got 0" in capsys.readouterr().err


def test_without_a_gpu_it_says_so_and_measures_nothing(gpus, capsys, tmp_path):
    gpus(0)
    out = tmp_path / "gap.json"
    assert timer_gap.main(["--out", str(out)]) == 2
    assert "needs a CUDA GPU; torch sees none here" in capsys.readouterr().out
    assert not out.exists()
