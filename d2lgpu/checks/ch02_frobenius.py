"""Checker ``02.frobenius``: the Frobenius-norm log, per step and at the end.

The answer runs with ``A`` on a GPU, a pretend one (:mod:`._pretend`) when there is
none: host reads of device data (``.item()``, ``.tolist()``, ``.cpu()``, ``float()``,
``print``, ``torch.tensor`` of a list of device tensors, a device value written into
a CPU tensor) are counted, and a tensor made on the CPU and mixed with ``A``'s is
named; on CUDA, ``torch.cuda.set_sync_debug_mode`` also counts the real
synchronizations.

Beyond the reads: the norms of a small and of a large A (the prompt names no scale), and
what a step costs besides them, as the product clock (:mod:`._ch02_clock`) sees it: a norm
taken twice, a log grown by ``torch.cat`` every step, every step's product kept alive.

The checker says which version reads how often, never which one is slower: that
depends on the GPU's work per step. At the exercise's 100 x 100 a step is bound by
its launch and a read every step costs next to nothing; where the GPU is busy
(1024 x 1024) the reads stall its queue (the solution's GPU cell times both).
"""

from __future__ import annotations

import math

import torch

from .._device_watch import KEPT_FROM_EARLIER
from ._ch02_clock import ProductClock, check_work, cost_hint
from ._ch02_norms import autocast_hint, overflow_hint, wrong_norms_hint
from ._kit_calls import autocasts_asked
from ._kit_process import defaults_kept
from ._pretend import cuda_sync_counter as _cuda_sync_counter
from ._pretend import watching
from ._util import CheckFailed, one_cpu_thread

__all__ = ["check_frobenius", "frobenius_reference"]


def frobenius_reference(A: torch.Tensor, steps: int) -> list[float]:
    """The exercise's norms: X = I; each step X = A @ X, log ||X||_F, X = X / ||X||_F."""
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm)
        X = X / norm
    return torch.stack(norms).tolist()


def _norms(fn, name, A, steps, pretend, on=None):
    """Run ``fn(A, steps)`` with A on the (pretend) GPU, ``on`` (``cuda:0`` unless given);
    validate what it returns.

    Returns the norms, the host reads, the :class:`ProductClock` of the call, the object
    returned, and how many values the reads moved.
    """
    before = A.clone()
    with (
        defaults_kept(name),
        autocasts_asked() as asked,
        watching(pretend) as watch,
        ProductClock(watch, A.numel()) as clock,
    ):
        try:
            result = fn(watch.put(A) if on is None else watch.put(A, on), steps)
        except RuntimeError:
            if not watch.mixed:
                raise
            result = None  # a real GPU refused to mix devices: reported below
    if watch.mixed and watch.mixed[0].endswith(KEPT_FROM_EARLIER):
        raise CheckFailed(
            f"{name}: {watch.mixed[0]}, whose A was on another GPU: something kept between "
            "calls (a list at module level, a default argument norms=[], a cached tensor) "
            "still holds that call's tensors. Make every list and tensor a call uses in that "
            "call"
        )
    if watch.mixed:
        raise CheckFailed(
            f"{name}: {watch.mixed[0]} while A is on the GPU; a GPU refuses to mix them. "
            "Make every tensor on A's device: torch.eye(n, device=A.device), "
            "torch.empty(steps, device=A.device), or x.to(A.device)"
        )
    if watch.raced:
        raise CheckFailed(
            f"{name}: {watch.raced[0]} read the copy that .to('cpu', non_blocking=True) made "
            "before anything waited for it: on a GPU that copy runs behind the host's back, "
            "and the read can come before it lands (zeros, or what the buffer held before). "
            "Wait first (torch.cuda.synchronize(), or an event's synchronize()), or copy "
            "without non_blocking (.tolist() or .cpu() of the device tensor wait by themselves)"
        )
    if clock.aliased:
        raise CheckFailed(
            f"{name}: {clock.aliased[0]} writes each product into one of its own operands: it "
            "reads X while it overwrites it, and what that gives depends on the machine's "
            "matrix library (zeros, garbage, an error). Make a new X each step, X = A @ X"
        )
    if not torch.equal(A, before):
        raise CheckFailed(
            f"{name}(A, {steps}) changed A in place (an in-place operation on A: A.div_(...), "
            "A /= ..., A.copy_(...)), so the caller's matrix, and every later call on it, is "
            "not what it was. Leave A as it is: X = A @ X makes a new X, and X = X / norm "
            "normalizes X, not A"
        )
    if isinstance(result, torch.Tensor):
        raise CheckFailed(
            f"{name} returned a tensor: return the norms as a list of Python floats "
            "(tensor.tolist() makes one)"
        )
    if not isinstance(result, list | tuple):
        raise CheckFailed(
            f"{name}(A, {steps}) returned a {type(result).__name__}: return a list of floats"
            + (", one for the one step (a 0-d tensor's .tolist() is a bare float: squeeze() "
               "of a (1, 1) log makes one)" if steps == 1 else "")
        )  # fmt: skip
    if len(result) != steps:
        raise CheckFailed(
            f"{name}(A, {steps}) returned {len(result)} norms: log one norm per step"
            + (
                " (more than steps: does a list kept between calls, a default argument "
                "norms=[] or a global, still hold the norms of earlier calls? Make a new "
                "list in every call)"
                if len(result) > steps
                else ""
            )
        )
    for i, value in enumerate(result):
        if isinstance(value, torch.Tensor):
            raise CheckFailed(
                f"{name}: norm {i} is still a tensor: transfer the norms to the host as "
                "Python floats"
            )
        if isinstance(value, bool) or not isinstance(value, int | float):
            kind = type(value)
            numpy = " (NumPy's, from a NumPy array: its .tolist() gives floats)"
            raise CheckFailed(
                f"{name}: norm {i} is a {kind.__name__}{numpy * (kind.__module__ == 'numpy')}, "
                "not a Python float: return a list of floats (tensor.tolist(), or .item() "
                "of each)"
            )
    bad = next((i for i, v in enumerate(result) if not math.isfinite(v)), None)
    if bad is not None:
        raise CheckFailed(overflow_hint(name, A, result, bad))
    check_work(name, steps, clock)
    values = [float(v) for v in result]
    if asked:  # a pretend GPU's CUDA autocast is off: measured then with the CPU's
        want = torch.tensor(frobenius_reference(A, steps), dtype=torch.float64)
        got = None if pretend else torch.tensor(values, dtype=torch.float64)
        if hint := autocast_hint(name, A, steps, asked, want, got):
            raise CheckFailed(hint)
    return values, watch.reads, clock, result, watch.read_numel


def _shown(reads: list[str]) -> str:
    counts = {r: reads.count(r) for r in dict.fromkeys(reads)}
    return ", ".join(f"{n} x {r}" for r, n in counts.items())


def check_frobenius(answer, passed):
    """Per-step and at-the-end logging of 1000 Frobenius norms: same values, different reads."""

    if (
        not isinstance(answer, tuple | list)
        or len(answer) != 2
        or not all(callable(f) for f in answer)
    ):
        raise CheckFailed(
            "pass both functions as a pair: "
            "check('02.frobenius', (log_norms_per_step, log_norms_at_end))"
        )
    one_cpu_thread(_check_frobenius)(*answer, passed)


def _check_frobenius(per_step, at_end, passed):
    from ..devices import try_gpu

    device = try_gpu()
    pretend = device.type == "cpu"  # no GPU: a pretend one records where tensors are made
    steps = 1000
    gen = torch.Generator().manual_seed(2)
    A = torch.randn(100, 100, generator=gen).to(device)  # unscaled: an unnormalized X overflows
    want = torch.tensor(frobenius_reference(A, steps), dtype=torch.float64)

    got_step, reads_step, clock_step, _, moved = _norms(
        per_step, "log_norms_per_step", A, steps, pretend
    )
    got_end, reads_end, clock_end, _, _ = _norms(at_end, "log_norms_at_end", A, steps, pretend)
    passed.append(
        "both versions return 1000 finite norms as Python floats, and make every tensor on "
        "A's device (checked on a pretend GPU when there is no real one)"
    )
    for name, got in (("log_norms_per_step", got_step), ("log_norms_at_end", got_end)):
        got = torch.tensor(got, dtype=torch.float64)
        if not torch.allclose(got, want, rtol=1e-3, atol=0):
            raise CheckFailed(wrong_norms_hint(name, A, got, want))
    passed.append("they agree with each other and with the reference norms (rtol 1e-3)")

    if len(reads_step) < steps:
        raise CheckFailed(
            f"log_norms_per_step read device data on the host {len(reads_step)} times for "
            f"{steps} steps: transfer each norm to the host as you log it (norm.item()). "
            "This is the version that reads every step: whether those reads cost anything "
            "is what this exercise measures"
        )
    # When: by the last product, a version that reads as it logs has read the norms of
    # (nearly) every step before it; one that reads them all after its loop, none.
    read_in_loop = clock_step.reads_at_product[-1] if clock_step.reads_at_product else None
    if read_in_loop is not None and read_in_loop < (steps - 1) // 2:
        raise CheckFailed(
            f"log_norms_per_step read the norms on the host {len(reads_step)} times, but only "
            f"{read_in_loop} of those reads came before its last product: it reads them after "
            "the loop, which is the at-the-end version again. Read each norm as you log it, "
            "inside the loop (norms.append(norm.item())), so that every step waits for the GPU"
        )
    if moved > 2 * steps:
        raise CheckFailed(
            f"log_norms_per_step moved {moved} values to the host for its {steps} norms: each "
            "step transfers more than its own norm (the whole log so far, norms[: i + 1]."
            "tolist(), or a row of values), so the bytes grow with the square of the steps. "
            "Transfer each norm alone as you log it, norm.item()"
        )
    passed.append(
        "the per-step version reads every norm on the host as it logs it, inside the loop "
        "(>= 1 host read per step, each before the next step's product)"
    )

    # steps and A's size are the arguments': a loop written for 1000 steps (or for an even
    # number) or an identity for 100 x 100 fails here, and so does one made on cuda:0 (or
    # torch.device("cuda")) for an A on cuda:1. Each call does its work again (twice the same
    # A: norms cached by A make no product the second time, named by check_work) and
    # returns a list of its own.
    B = torch.randn(48, 48, generator=gen).to(device)
    two = torch.device("cuda", 1) if pretend or torch.cuda.device_count() > 1 else None
    B = B if pretend or two is None else B.to(two)
    end_reads: dict[int, list[str]] = {}  # log_norms_at_end's host reads, by steps
    for n in (10, 7, 1):
        want_short = torch.tensor(frobenius_reference(B, n), dtype=torch.float64)
        for name, fn in (("log_norms_per_step", per_step), ("log_norms_at_end", at_end)):
            returned = []
            for _ in range(2):
                try:
                    got_short, reads, _, raw, _ = _norms(fn, name, B, n, pretend, two)
                    if fn is at_end:
                        end_reads[n] = reads
                except RuntimeError as error:  # an identity of another size: shapes refused
                    if "shape" not in str(error) and "size" not in str(error):
                        raise
                    got_short, raw = [math.nan], None
                got = torch.tensor(got_short, dtype=torch.float64)
                if got.shape != want_short.shape or not torch.allclose(got, want_short, rtol=1e-3):
                    if returned:  # the first of the two same calls was right
                        raise CheckFailed(
                            f"{name}(A, {n}) with A of 48 x 48 returned the right norms, and "
                            "other ones when called again with the same A: something kept "
                            "between calls changed (a tensor cached in a global or a default "
                            "argument, then written into with out= or in place). Make every "
                            "tensor a call writes into in that call"
                        )
                    raise CheckFailed(
                        f"{name}(A, {n}) with A of 48 x 48{' on ' + str(two) if two else ''} "
                        f"does not return the first {n} norms of that A: use the steps argument "
                        "for the number of steps and A's own size (torch.eye(A.shape[0], ...)), "
                        "not numbers written into the code"
                    )
                if any(raw is r for r in returned) and isinstance(raw, list):
                    raise CheckFailed(
                        f"{name} returned the same list object from two calls: a list kept "
                        "between calls (a global, a default argument) that each call clears and "
                        "fills again changes the result an earlier caller holds. Make a new list "
                        "in every call"
                    )
                returned.append(raw)
    for n, reads in ((steps, reads_end), (10, end_reads[10])):
        if len(reads) > 3:
            raise CheckFailed(
                f"log_norms_at_end read device data on the host {len(reads)} times for {n} "
                f"steps ({_shown(reads)}); each read waits for the GPU. Keep the norms on the "
                "device (torch.stack a list of 0-d tensors, or write into "
                "torch.empty(steps, device=A.device)) and transfer them once at the end "
                "with .tolist()"
            )
    with _cuda_sync_counter(device) as syncs:
        at_end(A, steps)
    if len(syncs) > 3:
        raise CheckFailed(
            f"torch.cuda.set_sync_debug_mode saw {len(syncs)} synchronizations in "
            f"log_norms_at_end for {steps} steps (first: {syncs[0]}): something in the loop "
            "waits for the GPU; keep everything on the device until the end"
        )
    passed.append(
        "the at-the-end version makes at most 3 host reads, for 10 steps as for 1000 (counted "
        "with a TorchFunctionMode; on CUDA also with torch.cuda.set_sync_debug_mode)"
    )
    # A of other scales, and what a step costs besides its reads: no check of their own in
    # the list of passes, whose words the solution notebook stores.
    _check_scales(per_step, at_end, gen, device, pretend)
    for name, clock in (("log_norms_per_step", clock_step), ("log_norms_at_end", clock_end)):
        if hint := cost_hint(name, steps, A.shape[0], clock):
            raise CheckFailed(hint)


def _check_scales(per_step, at_end, gen, device, pretend) -> None:
    """The prompt fixes A's dtype, float32, not its scale: the norms of a small and of a large
    A, a few steps, to the reference's 1e-3 (an epsilon added to the norm, a log kept in
    float16, are right only near norms of 1). Not smaller: float16 products, which the
    checker lets pass as it lets TF32's, stay within 1e-3 down to A's entries near 5e-5."""
    for scale in (5e-5, 1e4):  # B's size, on A's GPU: a tensor cached by size alone shows
        C = (scale * torch.randn(48, 48, generator=gen)).to(device)
        want = torch.tensor(frobenius_reference(C, 5), dtype=torch.float64)
        where = f" with A = {scale:g} * randn(48, 48) (float32, norms near {want[0].item():.2g})"
        for name, fn in (("log_norms_per_step", per_step), ("log_norms_at_end", at_end)):
            try:
                got = torch.tensor(_norms(fn, name, C, 5, pretend)[0], dtype=torch.float64)
            except CheckFailed as failed:  # said of this A, right for the unit-scale ones
                raise CheckFailed(
                    f"{failed.hint} (A here: {where.removeprefix(' with A = ')})"
                ) from None
            if not torch.allclose(got, want, rtol=1e-3, atol=0):
                raise CheckFailed(wrong_norms_hint(name + where, C, got, want))
