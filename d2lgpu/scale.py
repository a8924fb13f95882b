"""Plan a run you cannot afford: one rank's memory at any world size, in one CPU process.

What it is for: chapter 11 and its checkers. :func:`per_rank_bytes` builds a model, wraps
it the way a parallelism plan does, and runs two training steps of one rank of
``world_size`` under PyTorch's fake process group (collectives that move nothing) and its
memory trackers (:mod:`d2lgpu._fake_dist`). By default the model lives under
``FakeTensorMode``: tensors with shapes, dtypes and devices but no data, so a 70B model
costs no memory here. The answer is that rank's bytes of parameters, gradients and
optimizer state, and its peak.

The recipe matters, and lives here so that no caller gets it wrong:

* a warm-up step first, then the tracker's peak starts again (:func:`._fake_dist.restart_peak`):
  the first step is the one that creates the optimizer's state, and a peak taken over it
  alone shows none; a peak over both steps would show what the first step alone held (the
  tensors DTensor makes when a process first meets a sharded operator);
* the device mesh is made before ``FakeTensorMode`` starts (it reads its ranks' data);
* DDP on the fake group fails in backward (its reducer waits on a future the fake group
  never fills), so the plan gives DDP a communication hook that issues the all-reduce
  itself and hands the bucket back at once; with real tensors, the wrapped module is
  ``DistributedDataParallel(gradient_as_bucket_view=True)``, whose gradients live in its
  buckets. DDP cannot wrap fake tensors (it reads the parameters' data to check them
  across ranks), so under ``FakeTensorMode`` the "ddp" and "zero1" plans replicate the
  module and all-reduce each gradient from a post-accumulate hook: the same parameters,
  gradients and state per rank, without DDP's buckets.

Plans (:data:`PLANS`): ``"ddp"`` (everything replicated), ``"zero1"`` (optimizer state
sharded, ``ZeroRedundancyOptimizer``, which gives each rank whole tensors),
``"fsdp2"`` (``fully_shard`` on each block and the root: parameters, gradients and state
sharded, parameters resharded after forward), ``"fsdp2-keep"`` (the same, kept gathered
from forward to backward), ``"tp"`` (tensor parallelism of degree ``tp`` with
``parallelize_module`` inside each group of ``tp`` ranks, FSDP2 across the
``world_size / tp`` groups: a 2-D ``DeviceMesh``). fp32 Adam by default; the options
``checkpoint`` (activation checkpointing of every block) and ``precision="bf16"`` (bf16
parameters and gradients, fp32 masters) are :mod:`d2lgpu._scale_plans`'.

:func:`formula_bytes` is chapter 10's table (the Ultra-Scale Playbook's) for the same plans.

What it is not: a tracker of activations' exact lifetime on a GPU (the CPU allocator is
not the caching allocator), nor a launcher: nothing here runs on more than one process.
"""

from __future__ import annotations

import contextlib
import warnings

import torch
import torch.distributed as dist
from torch import nn

from ._fake_dist import fake_process_group, memory_tracker, restart_peak
from ._rank_start import note_autograd_threads
from ._scale_plans import (
    MasterAdam,
    check_options,
    checkpoint_blocks,
    state_formula,
    tensor_parallel,
    to_bf16,
)
from ._validate import check_int

__all__ = ["PLANS", "formula_bytes", "per_rank_bytes", "zero1_state_bytes"]

PLANS = ("ddp", "zero1", "fsdp2", "fsdp2-keep", "tp")


def _check_plan(plan) -> str:
    if plan not in PLANS:
        raise ValueError(f"plan must be one of {', '.join(map(repr, PLANS))}, got {plan!r}")
    return plan


def formula_bytes(
    n_params: int, plan: str, world_size: int, *, precision: str = "fp32", tp: int = 1
) -> dict[str, float]:
    """Chapter 10's formulas: bytes per rank of parameters, gradients and Adam's state.

    fp32 Adam keeps ``4Ψ`` bytes of parameters, ``4Ψ`` of gradients and ``8Ψ`` of moments
    for ``Ψ = n_params``; bf16 keeps ``2Ψ``, ``2Ψ`` and ``12Ψ`` (the fp32 masters and the
    moments). ZeRO-1 divides the optimizer state by ``world_size``, FSDP2 all three, and
    ``"tp"`` (of degree ``tp``, FSDP2 across the rest) all three by ``world_size`` too.
    """
    check_int("n_params", n_params, minimum=1)
    _check_plan(plan)
    check_int("world_size", world_size, minimum=1)
    check_options(plan, world_size, False, precision, tp)
    return state_formula(n_params, plan, world_size, precision, tp)


def _ddp_hook(state, bucket):
    """Issue the bucket's all-reduce and hand the bucket back at once (see the docstring)."""
    tensor = bucket.buffer()
    dist.all_reduce(tensor)
    future: torch.futures.Future = torch.futures.Future()
    future.set_result(tensor)
    return future


def _replicate(model: nn.Module, fake: bool) -> nn.Module:
    if not fake:
        from torch.nn.parallel import DistributedDataParallel

        ddp = DistributedDataParallel(model, gradient_as_bucket_view=True)
        ddp.register_comm_hook(None, _ddp_hook)
        return ddp
    for p in model.parameters():
        if p.requires_grad:
            p.register_post_accumulate_grad_hook(lambda q: dist.all_reduce(q.grad))
    return model


def _shard(model: nn.Module, mesh, reshard: bool, precision: str) -> None:
    from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard

    policy = MixedPrecisionPolicy(
        param_dtype=torch.bfloat16 if precision == "bf16" else None, reduce_dtype=torch.float32
    )

    blocks = getattr(model, "shard_units", None)
    units = list(blocks()) if callable(blocks) else [m for m in model.children()]
    for unit in units:
        if any(True for _ in unit.parameters()):
            fully_shard(unit, mesh=mesh, reshard_after_forward=reshard, mp_policy=policy)
    fully_shard(model, mesh=mesh, reshard_after_forward=reshard, mp_policy=policy)


def _unfaked():
    from torch._subclasses.fake_tensor import unset_fake_temporarily

    return unset_fake_temporarily()


def _nbytes(t: torch.Tensor) -> int:
    local = t.to_local() if hasattr(t, "to_local") else t
    return local.numel() * local.element_size()


def _state_bytes(optimizer) -> int:
    inner = getattr(optimizer, "optim", optimizer)  # ZeroRedundancyOptimizer's own Adam
    return sum(
        _nbytes(v)
        for state in inner.state.values()
        for v in state.values()
        if isinstance(v, torch.Tensor)
    )


def _example_input(model, inputs):
    if inputs is not None:
        return inputs(model)
    make = getattr(model, "example_input", None)
    if not callable(make):
        raise ValueError(
            "inputs must be given (a callable that takes the model and returns its input "
            f"batch) for a model without an example_input() method, got {type(model).__name__}"
        )
    return make()


def per_rank_bytes(
    model_fn,
    plan: str,
    world_size: int,
    *,
    inputs=None,
    fake: bool = True,
    checkpoint: bool = False,
    precision: str = "fp32",
    tp: int = 1,
) -> dict[str, int]:
    """Bytes on one rank of ``world_size`` training ``model_fn()`` with ``plan``, fp32 Adam.

    ``model_fn`` is a zero-argument callable returning an ``nn.Module``; ``inputs``, a
    callable that takes the module and returns one batch (default: the module's
    ``example_input()``). ``fake=True`` builds the module under ``FakeTensorMode`` (no
    data); ``False`` uses real CPU tensors. ``checkpoint=True`` recomputes every block of
    ``model.shard_units()`` in backward; ``precision="bf16"`` trains in bf16 with fp32
    master weights; ``tp`` is plan ``"tp"``'s tensor-parallel degree. Two steps of forward, ``sum()`` backward and
    ``Adam.step()`` run; the answer, after the second step, before ``zero_grad``:

    * ``params``, ``grads``, ``optimizer``: bytes this rank holds (local shards for FSDP2;
      Adam's ``step`` counters included);
    * ``peak``: the tracker's peak total over the second step, everything included;
    * ``tracker``: the tracker's bytes by kind at that peak, as it files them.
    """
    if not callable(model_fn) or isinstance(model_fn, nn.Module):
        raise TypeError(
            f"model_fn must be a zero-argument callable returning an nn.Module, got {model_fn!r}"
        )
    _check_plan(plan)
    check_int("world_size", world_size, minimum=1)
    if not isinstance(fake, bool):
        raise TypeError(f"fake must be True or False, got {fake!r}")
    if inputs is not None and not callable(inputs):
        raise TypeError(f"inputs must be a callable that takes the model, got {inputs!r}")
    check_options(plan, world_size, checkpoint, precision, tp)
    from torch.distributed.device_mesh import init_device_mesh

    # The tracked backward starts autograd's device threads: later ranks must not be forked.
    note_autograd_threads()
    with fake_process_group(world_size):
        mesh: object = None
        if plan.startswith("fsdp2"):
            mesh = init_device_mesh("cpu", (world_size,))
        elif plan == "tp":  # sliced here, outside fake mode: a slice reads the mesh's ranks
            mesh_2d = init_device_mesh("cpu", (world_size // tp, tp), mesh_dim_names=("dp", "tp"))
            mesh = (mesh_2d["dp"], mesh_2d["tp"])
        return _train_and_measure(model_fn, plan, mesh, fake, inputs, checkpoint, precision)


def _train_and_measure(
    model_fn, plan, mesh, fake, inputs, checkpoint=False, precision="fp32"
) -> dict:
    """The two steps and the measurement, in a process group that exists (fake or real)."""
    from torch._subclasses.fake_tensor import FakeTensorMode

    with FakeTensorMode() if fake else contextlib.nullcontext():
        model = model_fn()
        if not isinstance(model, nn.Module):
            raise TypeError(f"model_fn must return an nn.Module, got {type(model).__name__}")
        if plan == "tp":
            mesh, tp_mesh = mesh
            tensor_parallel(model, tp_mesh)
        if checkpoint:
            checkpoint_blocks(model)
        if mesh is not None:
            # FSDP2 over a TP-split module joins the two meshes, which reads their ranks:
            # real data, so that step leaves fake mode (the parameters stay fake)
            with _unfaked() if plan == "tp" and fake else contextlib.nullcontext():
                _shard(model, mesh, reshard=plan != "fsdp2-keep", precision=precision)
            wrapped = model
        else:
            wrapped = _replicate(to_bf16(model) if precision == "bf16" else model, fake)
        params = [p for p in wrapped.parameters() if p.requires_grad]
        adam = MasterAdam if precision == "bf16" and mesh is None else torch.optim.Adam
        if plan == "zero1":
            from torch.distributed.optim import ZeroRedundancyOptimizer

            optimizer: torch.optim.Optimizer = ZeroRedundancyOptimizer(params, optimizer_class=adam)
        else:
            optimizer = adam(params)
        tracker = memory_tracker(wrapped, optimizer, fsdp=mesh is not None)
        batch = _example_input(model, inputs)
        batch = batch if isinstance(batch, tuple) else (batch,)
        with tracker, warnings.catch_warnings():
            # The output is summed out of place, so the pre-backward hook FSDP2 puts on a
            # returned view cannot be dropped: its warning about in-place ops does not apply.
            warnings.filterwarnings("ignore", message="FSDP2-wrapped module", category=UserWarning)
            warnings.filterwarnings("ignore", message=".*use_reentrant.*")
            for step in range(2):
                wrapped(*batch).float().sum().backward()
                optimizer.step()
                if step == 0:  # the warm-up step made Adam's state; measure the next one
                    optimizer.zero_grad()
                    restart_peak(tracker)
        peak = tracker.get_tracker_snapshot("peak")
        kinds = next(iter(peak.values())) if peak else {"Total": 0}
        return {
            "params": sum(_nbytes(p) for p in params),
            "grads": sum(_nbytes(p.grad) for p in params if p.grad is not None),
            "optimizer": _state_bytes(optimizer),
            "peak": int(kinds["Total"]),
            "tracker": {getattr(k, "value", k): int(v) for k, v in kinds.items() if v},
        }


def zero1_state_bytes(model_fn, world_size: int) -> list[int]:
    """Adam's state on each rank of ``world_size`` as ``ZeroRedundancyOptimizer`` deals it.

    ``ZeroRedundancyOptimizer`` gives each rank whole tensors: it sorts them by size and
    hands each to the rank that holds the fewest elements so far. A rank keeps 8 bytes per
    parameter it owns (Adam's two fp32 moments) and 4 per tensor (its ``step`` counter).
    Nothing is trained: ``model_fn()`` is built on the meta device and only the partition
    is read (its private ``_partition_parameters``), so a 70B model takes a second.
    """
    if not callable(model_fn) or isinstance(model_fn, nn.Module):
        raise TypeError(
            f"model_fn must be a zero-argument callable returning an nn.Module, got {model_fn!r}"
        )
    check_int("world_size", world_size, minimum=1)
    from torch.distributed.optim import ZeroRedundancyOptimizer

    with torch.device("meta"):
        model = model_fn()
    if not isinstance(model, nn.Module):
        raise TypeError(f"model_fn must return an nn.Module, got {type(model).__name__}")
    params = [p for p in model.parameters() if p.requires_grad]
    with fake_process_group(world_size):
        zero = ZeroRedundancyOptimizer(params, optimizer_class=torch.optim.Adam)
        ranks = zero._partition_parameters()  # type: ignore[attr-defined]
    return [sum(8 * p.numel() + 4 for group in rank for p in group["params"]) for rank in ranks]
