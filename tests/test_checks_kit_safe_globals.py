"""The checker kit's watch on the globals weights_only loads may build
(d2lgpu.checks._kit_safe_globals): what an answer allows or clears is named and put back;
torch's own additions, the checker's and a with-block's are not."""

import pytest
import torch
from torch import nn

from d2lgpu.checks._ch03_networks import load_tensors_only
from d2lgpu.checks._kit_process import defaults_kept, left_changed, settings
from d2lgpu.checks._util import CheckFailed


def answer_runs(source: str, **names) -> None:
    """Run ``source`` as a learner's file (outside the course and its tests) would, with
    ``names`` defined."""
    code = compile(f"import torch\nfrom torch import nn\n{source}\n", "answer.py", "exec")
    exec(code, names)  # noqa: S102


class Mine:
    """A class of a learner's own, allowed under a path of its own."""


@pytest.fixture(autouse=True)
def allowed():
    """The process's list, put back after each test whatever the test did."""
    kept = torch.serialization.get_safe_globals()
    yield set(kept)
    torch.serialization.clear_safe_globals()
    torch.serialization.add_safe_globals(kept)


@pytest.mark.parametrize(
    ("source", "shown"),
    [
        ("torch.serialization.add_safe_globals([nn.Sequential, nn.Linear])", "Linear, Sequential"),
        ("torch.serialization._weights_only_unpickler._add_safe_globals([nn.ReLU])", "ReLU"),
    ],
)
def test_classes_an_answer_allows_are_named_and_taken_back(allowed, source, shown):
    before = settings()
    answer_runs(source)
    assert left_changed(before) == [f"torch.serialization.add_safe_globals([{shown}])"]
    assert set(torch.serialization.get_safe_globals()) == allowed


def test_a_global_allowed_with_its_path_is_named_by_the_path(allowed):
    before = settings()
    torch.serialization.add_safe_globals([(Mine, "learner.Mine")])  # the checker's: not named
    answer_runs("torch.serialization.add_safe_globals([(nn.Linear, 'my.Linear')])")
    assert left_changed(before) == ["torch.serialization.add_safe_globals([my.Linear])"]
    now = set(torch.serialization.get_safe_globals())
    assert (Mine, "learner.Mine") in now and (nn.Linear, "my.Linear") not in now


def test_a_list_an_answer_clears_is_named_and_put_back(allowed):
    torch.serialization.add_safe_globals([Mine])
    before = settings()
    answer_runs("torch.serialization.clear_safe_globals()")
    assert left_changed(before) == ["torch.serialization.clear_safe_globals()"]
    assert set(torch.serialization.get_safe_globals()) == allowed | {Mine}


def test_a_with_block_and_torchs_own_additions_leave_nothing_to_name(allowed):
    before = settings()
    answer_runs("with torch.serialization.safe_globals([nn.Sequential]):\n    pass")
    torch.serialization.add_safe_globals([Mine])  # as torch does when it imports a module
    assert left_changed(before) == []
    assert set(torch.serialization.get_safe_globals()) == allowed | {Mine}  # torch's stay


def test_defaults_kept_fails_naming_the_allowed_classes_and_the_with_block(allowed):
    with pytest.raises(CheckFailed) as failed, defaults_kept("save_parameters"):
        answer_runs("torch.serialization.add_safe_globals([nn.Sequential])")
    assert str(failed.value).startswith(
        "save_parameters leaves a process-wide setting changed "
        "(torch.serialization.add_safe_globals([Sequential])):"
    )
    assert "torch.serialization.safe_globals([...])" in str(failed.value)
    assert nn.Sequential not in torch.serialization.get_safe_globals()


def test_the_checkers_load_refuses_a_pickled_module_whatever_the_process_allows(tmp_path):
    path = tmp_path / "net.pt"
    torch.save(nn.Sequential(nn.Linear(2, 2)), path)
    torch.serialization.add_safe_globals([nn.Sequential, nn.Linear])
    assert isinstance(torch.load(path, weights_only=True), nn.Sequential)  # allowed: it loads
    with pytest.raises(Exception, match="Unsupported global"):
        load_tensors_only(path)
    assert {nn.Sequential, nn.Linear} <= set(torch.serialization.get_safe_globals())
    torch.save(nn.Sequential(nn.Linear(2, 2)).state_dict(), path)
    assert list(load_tensors_only(path)) == ["0.weight", "0.bias"]


def test_globals_allowed_in_two_calls_are_all_named_and_one_without_a_name_by_its_repr(allowed):
    before = settings()
    answer_runs(
        "import functools\n"
        "torch.serialization.add_safe_globals([nn.ReLU])\n"
        "torch.serialization.add_safe_globals([functools.partial(print)])"
    )
    changed = left_changed(before)
    assert len(changed) == 1 and changed[0].startswith(
        "torch.serialization.add_safe_globals([ReLU, functools.partial(<built-in function print>)"
    )
    assert set(torch.serialization.get_safe_globals()) == allowed


def test_a_with_block_that_allowed_a_global_again_takes_it_off_and_is_named(allowed):
    torch.serialization.add_safe_globals([Mine, nn.Tanh])
    before = settings()
    answer_runs("with torch.serialization.safe_globals([Mine, nn.Tanh]):\n    pass", Mine=Mine)
    assert left_changed(before) == [
        "torch.serialization.safe_globals([Mine, Tanh]) ended, taking off Mine, Tanh, which "
        "the caller had allowed"
    ]
    assert {Mine, nn.Tanh} <= set(torch.serialization.get_safe_globals())


def test_the_unpicklers_own_clear_called_by_the_answer_is_named_as_a_clear(allowed):
    torch.serialization.add_safe_globals([Mine])
    before = settings()
    answer_runs("torch.serialization._weights_only_unpickler._clear_safe_globals()")
    assert left_changed(before) == ["torch.serialization.clear_safe_globals()"]
    assert Mine in torch.serialization.get_safe_globals()
