"""d2lgpu._op_send: an operator a cell defines with torch.library reaches ranks a fork server
starts (with its autograd, whether the code holds it or reaches it through ``torch.ops``),
and the dispatcher's own handles travel by their names."""

import pickle
import uuid

import cloudpickle
import pytest
import torch
from test_ranks import notebook_cell

from d2lgpu import _op_send, ranks
from d2lgpu._rank_start import _Packed
from d2lgpu.ranks import CannotSend, run_ranks

OPS = """
import torch
import torch.distributed as dist

@torch.library.custom_op("{ns}::summed", mutates_args=())
def summed(x: torch.Tensor) -> torch.Tensor:
    total = x.clone()
    dist.all_reduce(total)
    return total

def _summed_backward(ctx, grad):
    return summed(grad) * ctx.twice  # calls its own operator: sent once all the same

def _keep(ctx, inputs, output):
    ctx.twice = 2.0

summed.register_autograd(_summed_backward, setup_context=_keep)

@torch.library.custom_op("{ns}::halved", mutates_args=())
def halved(x: torch.Tensor) -> torch.Tensor:
    return x / 2

@halved.register_fake
def _(x):
    return torch.empty_like(x)

def holds_it(rank, world):
    x = torch.full((2,), float(rank + 1), requires_grad=True)
    summed(x).sum().backward()
    return summed(x.detach()), x.grad

def reaches_it_by_name(rank, world):
    return torch.ops.{ns}.halved(torch.full((2,), float(rank + 1)))

HANDLES = torch.ops.aten.add, torch.ops.aten.add.Tensor, torch.ops.{ns}.halved.default

def holds_handles(rank, world):
    add, default, halve = HANDLES
    return add(torch.ones(1), rank).item(), default(torch.ones(1), rank).item(), halve(
        torch.ones(1) * rank
    ).item()
"""


@pytest.fixture
def cell():
    return notebook_cell(OPS.format(ns=f"sendtest_{uuid.uuid4().hex[:8]}"))


def test_a_cells_custom_operator_runs_with_its_autograd_in_ranks_a_fork_server_starts(
    monkeypatch, cell
):
    monkeypatch.setenv(ranks.START_ENV_VAR, "forkserver")
    for total, grad in run_ranks(cell["holds_it"], world=2):
        torch.testing.assert_close(total, torch.tensor([3.0, 3.0]))  # 1 + 2
        torch.testing.assert_close(grad, torch.tensor([4.0, 4.0]))  # (1 + 1) summed, times 2


def test_an_operator_reached_only_through_torch_ops_is_registered_in_the_rank(monkeypatch, cell):
    monkeypatch.setenv(ranks.START_ENV_VAR, "forkserver")
    halves = run_ranks(cell["reaches_it_by_name"], world=2)
    assert [h.tolist() for h in halves] == [[0.5, 0.5], [1.0, 1.0]]


def test_the_dispatchers_handles_travel_by_their_names(monkeypatch, cell):
    monkeypatch.setenv(ranks.START_ENV_VAR, "forkserver")
    assert run_ranks(cell["holds_handles"], world=2) == [(1.0, 1.0, 0.0), (2.0, 2.0, 0.5)]
    with pytest.raises(Exception, match="pickl"):  # what the names stand in for
        pickle.dumps(torch.ops.aten.add.Tensor)


def test_an_operator_is_looked_up_where_it_is_registered_and_built_only_where_it_is_not(cell):
    op = cell["summed"]
    assert op in _op_send.defined_here()
    assert cloudpickle.loads(_Packed(op).blob)[1] is op  # registered here: the same one
    function, args, state, _, _, setter = _op_send.op_reduction(op)
    assert (function, setter) == (_op_send.custom_op_at, _op_send.fill)
    assert args[:2] == (op._namespace, "summed")
    assert state["backward"] is cell["_summed_backward"] and state["setup_context"] is cell["_keep"]
    assert state["kernels"] == {None: op._init_fn}  # the function, not register_kernel's wrapper
    before = dict(op._backend_fns)
    _op_send.fill(op, {**state, "kernels": {"cpu": print}})
    assert op._backend_fns == before  # not built here: left as it is
    assert _op_send.op_reduction(torch.ones(1)) is None


def test_a_packages_custom_operator_travels_by_its_name(tmp_path, monkeypatch):
    name = f"sendtest_pkg_{uuid.uuid4().hex[:8]}"
    (tmp_path / f"{name}.py").write_text(
        "import torch\n"
        f"@torch.library.custom_op('{name}::twice', mutates_args=())\n"
        "def twice(x: torch.Tensor) -> torch.Tensor:\n"
        "    return x * 2\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    op = __import__(name).twice
    assert op not in _op_send.defined_here()
    function, (module, qualname) = _op_send.op_reduction(op)
    assert (function, module, qualname) == (_op_send.custom_op_named, name, f"{name}::twice")
    assert cloudpickle.loads(_Packed(op).blob)[1] is op


def test_an_old_cells_operator_that_cannot_travel_does_not_stop_an_answer_that_needs_none(
    monkeypatch,
):
    monkeypatch.setenv(ranks.START_ENV_VAR, "forkserver")
    cell = notebook_cell(
        "import threading, torch\n"
        "lock = threading.Lock()\n"
        f"@torch.library.custom_op('sendtest_{uuid.uuid4().hex[:8]}::locked', mutates_args=())\n"
        "def locked(x: torch.Tensor) -> torch.Tensor:\n"
        "    with lock:\n"
        "        return x.clone()\n"
        "def plain(rank, world):\n"
        "    return rank\n"
        "def uses_it(rank, world):\n"
        "    return locked(torch.ones(1))\n"
    )
    assert run_ranks(cell["plain"], world=2) == [0, 1]
    with pytest.raises(CannotSend, match="cannot send .*uses_it"):
        run_ranks(cell["uses_it"], world=2)


FULL = """
import torch

@torch.library.custom_op("{ns}::scaled", mutates_args=(), tags=(torch.Tag.pt2_compliant_tag,))
def scaled(x: torch.Tensor) -> torch.Tensor:
    return x * 2

@scaled.register_kernel("cpu")
def _(x):
    return x * 3  # the CPU's kernel: not the operator's own function

@scaled.register_fake
def _(x):
    return torch.empty_like(x)

def _backward(ctx, grad):
    return grad * ctx.factor

def _keep(ctx, inputs, output):
    ctx.factor = 3.0

scaled.register_autograd(_backward, setup_context=_keep)

def _vmap(info, in_dims, x):
    return x * 3, in_dims[0]

scaled.register_vmap(_vmap)
scaled.register_autocast("cpu", torch.float64)

class Mode(torch.utils._python_dispatch.TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {{}}))

def _dispatch(mode, func, types, args, kwargs):
    return args[0] * 5

scaled.register_torch_dispatch(Mode, _dispatch)
"""


def test_the_autocast_dtypes_are_read_as_newer_and_older_torch_keep_them():
    # torch 2.11 (the H200 of 2026-12-04) keeps _autocast_cpu_dtype and _autocast_cuda_dtype,
    # newer torch one dict: a rebuilt operator lost its autocast there
    from types import SimpleNamespace

    older = SimpleNamespace(_autocast_cpu_dtype=torch.float64, _autocast_cuda_dtype=None)
    assert _op_send._autocasts(older) == {"cpu": torch.float64}
    older._autocast_cuda_dtype = torch.float16
    assert _op_send._autocasts(older) == {"cpu": torch.float64, "cuda": torch.float16}
    newer = SimpleNamespace(_autocast_dtype={"cuda": torch.float16, "xpu": None})
    assert _op_send._autocasts(newer) == {"cuda": torch.float16}
    assert _op_send._autocasts(SimpleNamespace()) == {}


def test_an_operator_built_from_its_definition_has_every_function_registered_on_it():
    # what a rank a fork server starts does, here in the parent, under a name of its own
    cell = notebook_cell(FULL.format(ns=f"sendtest_{uuid.uuid4().hex[:8]}"))
    _, args, state, *_ = _op_send.op_reduction(cell["scaled"])
    fresh = f"rebuilt_{uuid.uuid4().hex[:8]}"
    op = _op_send.custom_op_at(fresh, *args[1:])
    assert op is not cell["scaled"] and op._qualname == f"{fresh}::scaled"
    assert _op_send.custom_op_at(fresh, *args[1:]) is op  # registered now: looked up
    with pytest.raises(
        RuntimeError, match="^a custom operator was called before its functions arrived$"
    ):
        op._init_fn(torch.ones(1))
    _op_send.fill(op, state)
    x = torch.ones(2, requires_grad=True)
    y = op(x)
    assert y.tolist() == [3.0, 3.0] and y.dtype == torch.float32  # the CPU's kernel
    y.sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]  # backward, with what setup_context kept
    assert op._init_fn is cell["scaled"]._init_fn and op._abstract_fn is state["fake"]
    assert set(op._backend_fns) == {None, "cpu"} and op._vmap_fn is state["vmap"]
    assert op._tags == cell["scaled"]._tags and torch.Tag.pt2_compliant_tag in op._tags
    assert torch.vmap(op)(torch.ones(2, 2)).tolist() == [[3.0, 3.0]] * 2
    with torch.autocast("cpu", dtype=torch.bfloat16):
        assert op(torch.ones(1)).dtype == torch.float64  # cast to autocast's registered dtype
    one = torch.ones(1)
    with cell["Mode"]():
        assert op(one).tolist() == [5.0]  # the rule registered for that mode
    assert getattr(torch.ops, fresh).scaled.default is _op_send.op_at(f"{fresh}::scaled", "default")
    assert _op_send.op_at("aten::add") is torch.ops.aten.add
    assert _op_send.op_at("aten::add", "Tensor") is torch.ops.aten.add.Tensor
