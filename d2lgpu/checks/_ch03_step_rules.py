"""The 03.device_bug checker's rules beside the parameters: what a step must leave alone.

The reference step and its batches; a run with ``torch.cuda.is_available()`` True
that sees device-wide waits and the allocator's cache emptied; the global random
generator left as it was; no attached loss kept after the step (its graph with
it); and a step on a batch whose gradients are large. What it is not: the checker, :mod:`.ch03_device_bug`, which
runs the meta device's watch and the three steps against the reference.
"""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import torch
import torch.nn.functional as F

from ._ch03_networks import CLASS_WEIGHTS, defaults_kept, make_net, same_params, seeded_net
from ._kit import patched
from ._util import CheckFailed

__all__ = [
    "batch",
    "check_large_gradients",
    "kept_graph",
    "reference_train_step",
    "rng_kept",
    "waits_for_the_gpu",
]


def reference_train_step(
    net, X, y, opt, device, *, weighted=True, zero_grad=True, one_hot=False, clip=None
):
    """The fixed training step: the batch and the class weights on the model's device.

    ``weighted`` and ``zero_grad`` switch off a part, ``one_hot`` and ``clip`` add one, to
    name a learner's mistake.
    """
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device) if weighted else None
    logits = net(X)
    target = F.one_hot(y, logits.shape[1]).to(logits.dtype) if one_hot else y
    loss = F.cross_entropy(logits, target, weight=class_weights)
    if zero_grad:
        opt.zero_grad()
    loss.backward()
    if clip is not None:
        torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm=clip)
    opt.step()
    return loss.detach()


def batch(seed: int, n: int = 16):
    gen = torch.Generator().manual_seed(seed)
    X = torch.randn(n, 4, generator=gen)
    y = torch.randint(0, 3, (n,), generator=gen)
    return X, y


def waits_for_the_gpu(step) -> None:
    """Run ``step`` on meta with ``torch.cuda.is_available()`` True: a device-wide wait
    behind it is seen. CUDA calls may fail here (there may be none): the waits before count."""
    waits: list[str] = []

    def noted(name: str):
        return lambda *args, **kwargs: waits.append(name)

    changes: list[tuple[Any, str, Any]] = [(torch.cuda, "is_available", lambda: True)]
    for owner in (torch.cuda, torch.accelerator):  # both on every torch the course supports
        name = f"torch.{owner.__name__.rpartition('.')[2]}.synchronize()"
        changes.append((owner, "synchronize", noted(name)))
    changes.append((torch.cuda, "empty_cache", noted("torch.cuda.empty_cache()")))
    net = make_net().to("meta")
    X, y = batch(0)
    try:
        with patched(*changes), defaults_kept("the step"):
            step(net, X, y, torch.optim.SGD(net.parameters(), lr=0.1), torch.device("meta"))
    except Exception as error:  # what CUDA calls raise without a GPU; the checks above ran
        if isinstance(error, CheckFailed):
            raise
    if "torch.cuda.empty_cache()" in waits:
        raise CheckFailed(
            "the step calls torch.cuda.empty_cache() (seen in a run where "
            "torch.cuda.is_available() was True): it hands the caching allocator's free "
            "memory back to the driver every step (cudaFree waits for the GPU), and the next "
            "step pays for fresh cudaMalloc calls for the same tensors. Leave the cache to "
            "PyTorch: it reuses that memory from step to step"
        )
    if waits:
        raise CheckFailed(
            f"the step calls {waits[0]} (seen in a run where torch.cuda.is_available() was "
            "True): on a GPU the host then waits every step until all the queued work is "
            "done, the wait that returning the loss tensor instead of loss.item() avoids. A "
            "copy made with non_blocking=True needs no wait before it is used: the operations "
            "that use it are queued after it, on the same stream"
        )


@contextmanager
def rng_kept() -> Iterator[None]:
    """Fail if the block changed the global random generator (the step draws nothing)."""
    torch.rand(1)  # a state no fresh torch.manual_seed(n) gives
    state = torch.get_rng_state()
    yield
    if not torch.equal(torch.get_rng_state(), state):
        torch.set_rng_state(state)
        raise CheckFailed(
            "the step changed the global random generator (torch.manual_seed, or a random "
            "draw): the given step draws no random numbers. Seeding inside the step makes "
            "the caller's shuffling, dropout and initialisation repeat the same numbers after "
            "every step; seed once, at the start of the program, if at all"
        )


class _Backwards:
    """Weak references to the tensors that ``backward()`` was called on."""

    def __init__(self) -> None:
        self.refs: list[weakref.ref[torch.Tensor]] = []

    def check(self, returned) -> None:
        gc.collect()
        alive = [r() for r in self.refs]
        if any(t is not None and t is not returned and t.grad_fn is not None for t in alive):
            raise CheckFailed(
                "after the step returned, the loss that loss.backward() was called on is "
                "still alive, attached to its graph: something keeps it (a list for logging, a "
                "global), and with it every step's autograd graph, activations included, so "
                "memory grows with every call. Keep loss.detach() (or its value, read later) "
                "instead"
            )


@contextmanager
def kept_graph() -> Iterator[_Backwards]:
    seen = _Backwards()
    backward = torch.Tensor.backward

    def noted(self, *args, **kwargs):
        seen.refs.append(weakref.ref(self))
        return backward(self, *args, **kwargs)

    with patched((torch.Tensor, "backward", noted)):
        yield seen


def check_large_gradients(answer, device) -> None:
    """One step on a batch whose gradients are large (norm well over 1): the reference
    step's update, not a clipped one."""
    X, y = batch(7)
    X = X * 30
    nets = {k: seeded_net(6).to(device) for k in ("answer", "reference", "clipped")}
    opts = {k: torch.optim.SGD(n.parameters(), lr=0.05) for k, n in nets.items()}
    reference_train_step(nets["reference"], X, y, opts["reference"], device)
    reference_train_step(nets["clipped"], X, y, opts["clipped"], device, clip=1.0)
    with defaults_kept("the step"):
        answer(nets["answer"], X, y, opts["answer"], device)
    if same_params(nets["answer"], nets["reference"], close=True):
        return
    said = (
        "on a batch whose gradients are large (norm well over 1), the step's update differs "
        "from the given step's: "
    )
    if same_params(nets["answer"], nets["clipped"], close=True):
        said += "the gradients were clipped (clip_grad_norm_); "
    raise CheckFailed(
        said + "keep the step's computation as given (no clipping or rescaling of the "
        "gradients); only change where tensors live"
    )
