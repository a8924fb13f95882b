"""``02.frobenius``'s product clock: what one call of an answer did besides reading the host,
and the rules on its work and its costs.

:class:`ProductClock` is a ``TorchFunctionMode`` run inside the device watch. Per call it
records when each matrix product began (counted in host reads), where it ran, the norms
taken of X (reductions of a matrix of A's size to one float), the values joined by
``torch.cat`` and its kin, and how many matrices of A's size were alive at once.

What it is not: the host reads (:mod:`d2lgpu._device_watch`), nor the order of the checks
(:mod:`.ch02_frobenius`).
"""

from __future__ import annotations

import weakref

import torch
from torch.overrides import TorchFunctionMode

from ._util import MATRIX_PRODUCTS, CheckFailed

__all__ = ["ProductClock", "check_work", "cost_hint"]

_JOINS = frozenset(
    {"cat", "concat", "concatenate", "stack", "hstack", "vstack", "dstack", "column_stack",
     "row_stack"}
)  # fmt: skip


def _flat_args(args):
    for a in args:
        if isinstance(a, list | tuple):
            yield from a
        else:
            yield a


class ProductClock(TorchFunctionMode):
    """Under a watch: how many host reads the watch had recorded when each product began,
    and how many products ran on the CPU (no operand on the device).

    A count of reads says nothing of *when* they happen: norms kept on the device
    and read one by one after the loop are as many reads as one per step. This
    says which. The products say where, and whether, the work ran: a version that
    copies ``A`` to the host first reads once and computes everything on the CPU, and
    one that hands back norms cached by the other version makes no product at all.

    ``size`` is A's number of elements: a call that reduces a tensor of that size to one
    float is a norm of X (``reductions``, by name); ``joined`` is the size of each result
    of ``torch.cat``/``torch.stack`` and kin; ``most_alive`` the most tensors of that size
    (not views) alive at once.
    """

    def __init__(self, watch, size: int = -1):
        super().__init__()
        self.watch = watch
        self.size = size
        self.reads_at_product: list[int] = []
        self.on_host = 0
        self.aliased: list[str] = []  # products written into one of their own operands
        self.reductions: dict[str, int] = {}
        self.joined: list[int] = []
        self.most_alive = 0
        self._alive: dict[int, weakref.ref] = {}

    def __torch_function__(self, func, types, args=(), kwargs=None):
        name = getattr(func, "__name__", "")
        if name in MATRIX_PRODUCTS:
            self.reads_at_product.append(len(self.watch.reads))
            operands = [a for a in _flat_args(args) if isinstance(a, torch.Tensor)]
            if not any(self.watch.on_device(a) for a in operands):
                self.on_host += 1
            out = (kwargs or {}).get("out")
            ptrs = {a.untyped_storage().data_ptr() for a in operands}
            if isinstance(out, torch.Tensor) and out.untyped_storage().data_ptr() in ptrs:
                self.aliased.append(f"torch.{name}(..., out=...)")
        result = func(*args, **(kwargs or {}))
        if isinstance(result, torch.Tensor):
            with torch._C.DisableTorchFunction():  # the clock's own looks are no calls
                self._follow(name, [*args, *(kwargs or {}).values()], result)
        return result

    def _follow(self, name, inputs, result):
        numel, fresh = result.numel(), result.dtype.is_floating_point and result._base is None
        if name in _JOINS:
            self.joined.append(numel)
        elif (
            numel == 1
            and fresh  # not a view (X[0, 0]), nor a new tensor of X's (X.new_zeros(()))
            and not name.startswith("new_")
            and any(isinstance(a, torch.Tensor) and a.numel() == self.size for a in inputs)
        ):
            self.reductions[name] = self.reductions.get(name, 0) + 1
        if numel == self.size and fresh:
            key = id(result)
            self._alive[key] = weakref.ref(result, lambda _, k=key: self._alive.pop(k, None))
            self.most_alive = max(self.most_alive, len(self._alive))


def check_work(name: str, steps: int, clock: ProductClock) -> None:
    """Each version does its own ``steps`` products, on A's device."""
    made = len(clock.reads_at_product)
    if made == steps - 1:
        raise CheckFailed(
            f"{name}(A, {steps}) made {made} matrix products for {steps} steps, one fewer: "
            "starting from X = A skips the first step's product (A @ I, the same values). Start "
            "from the identity and multiply at every step, X = A @ X, as the prompt asks: each "
            "step's product is what the log times"
        )
    if made < steps:
        raise CheckFailed(
            f"{name}(A, {steps}) made {made} matrix products for {steps} steps: each call must "
            "do its own work, X = A @ X every step. Norms cached from the other version or from "
            "an earlier call (a dict keyed by A, functools.cache) measure nothing"
        )
    if made > 2 * steps:
        restarts = made == steps * (steps + 1) // 2
        raise CheckFailed(
            f"{name}(A, {steps}) made {made} matrix products for {steps} steps, "
            + ("1 + 2 + ... + steps: each step starts again from the identity and makes all of "
               "its products anew. " if restarts else "more than two a step. ")
            + "Keep X from one step to the next: one product a step, X = A @ X, as the prompt "
            "asks"
        )  # fmt: skip
    if clock.on_host:
        raise CheckFailed(
            f"{name}(A, {steps}): {clock.on_host} of its {made} products ran on the CPU, not on "
            "A's device: A.cpu() (or .to('cpu'), or X made on the CPU) copies the work to the "
            "host. Keep A and X on A's device (torch.eye(n, device=A.device)) and transfer only "
            "the norms"
        )


def cost_hint(name: str, steps: int, n: int, clock: ProductClock) -> str | None:
    """What ``name``'s call of ``steps`` steps, with an ``n`` x ``n`` A, did more than a step
    needs (matrices kept, a norm taken twice, a log grown by copies), said with its fix."""
    if clock.most_alive > max(10, steps // 10):
        return (
            f"{name} held {clock.most_alive} matrices of A's size ({n} x {n}) alive at once "
            f"for {steps} steps: it keeps every step's product X (a list of the products, to "
            "take their norms together at the end), steps x n x n floats, 4 GB for 1000 steps "
            "of 1024 x 1024. Keep only the norms: take each step's norm as you go, log it (a "
            "0-d tensor), and let X go"
        )
    taken = sum(clock.reductions.values())
    if taken > steps + max(2, steps // 2):
        shown = ", ".join(
            f"{k} x {f.replace('linalg_', 'linalg.')}" for f, k in clock.reductions.items()
        )
        return (
            f"{name} computed X's norm {taken} times for {steps} steps ({shown}): more than "
            "once per step (once to log it, again to divide by it), each a pass over all of X. "
            "Compute the norm once per step and reuse it: norm = torch.linalg.matrix_norm(X), "
            "log norm, then X = X / norm"
        )
    grown = sum(clock.joined) - max(clock.joined, default=0)
    if grown > 2 * steps:
        return (
            f"{name} copied {sum(clock.joined)} values with torch.cat (or stack) for {steps} "
            f"norms, in {len(clock.joined)} calls: the log grows by a new tensor every step "
            "that copies the whole log so far (log = torch.cat([log, norm])), copies that grow "
            "with the square of the steps. Append each 0-d norm to a Python list and "
            "torch.stack it once at the end, or write into a tensor made once, "
            "log = torch.empty(steps, device=A.device); log[i] = norm"
        )
    return None
