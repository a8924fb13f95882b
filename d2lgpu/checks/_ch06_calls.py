"""How ``06.slowest_op``'s answer called ``fn``, waited and ranked, and what else it put in
its profile: the checker's ``fn`` that records each call (profiled or not, with ``args``
themselves, in grad mode), the GPU it waited for after the warm-up, the labels it opened
(``record_function``), the operators of its profile that ``fn`` never runs, a GPU profile
ranked by CPU time, and the hints for each.

What it is not: the checker (:mod:`d2lgpu.checks.ch06_performance`), or the GPU's side
(:mod:`d2lgpu.checks._gpu_profile`, which adds the labels to a scripted profile).
"""

from __future__ import annotations

import threading
from contextlib import contextmanager

import torch

from ._ch06_reads import asked
from ._ch06_workloads import largest, profiler_own
from ._kit import patched
from ._util import CheckFailed

__all__ = [
    "args_check",
    "calls_check",
    "extra_operators_check",
    "gpu_column_hint",
    "label_hint",
    "labels_opened",
    "recording",
    "sync_check",
]

_NO_GRAD = (
    "fn ran with gradients switched off (torch.no_grad() or torch.inference_mode()): that is "
    "another call than fn(*args), and a training step's backward raises there. Call fn(*args) "
    "as it is, for the warm-up too: its one-off costs (autograd's included) are what the "
    "warm-up keeps out of the profile"
)


def recording(fn, calls, args, log=None, state=None):
    """``fn`` that records, per call, whether the profiler was running (in ``calls`` and
    ``log``), and refuses a call in another grad mode or with other tensors than ``args``."""

    def recorded(*given):
        if threading.get_ident() != recorded.caller:
            recorded.elsewhere += 1  # a thread of the answer's own
        enabled = torch.autograd._profiler_enabled()
        if not torch.is_grad_enabled():
            raise CheckFailed(_NO_GRAD)
        if len(given) == len(args) and any(g is not a for g, a in zip(given, args, strict=True)):
            raise CheckFailed(
                "fn was called with copies of its arguments (a clone, or a .to() that copied), "
                "not with args themselves: the copies are work of your own, and in the profile "
                "block their aten::clone and aten::copy_ rows are profiled with fn's. Call "
                "fn(*args) with the arguments as given"
            )
        calls.append(enabled)
        if log is not None:
            log.append(("call", enabled))
        if state is not None and enabled:
            state["fn_profiled"] = True
        return fn(*given)

    recorded.caller, recorded.elsewhere = threading.get_ident(), 0
    return recorded


def calls_check(calls, recorded=None, *, later: bool) -> None:
    """Whether ``fn`` ran as a warm-up (once or more: the prompt says more do no harm) and then
    once under the profiler, and not after it, on the calling thread (``recorded``: the
    :func:`recording` the answer got; ``later``: an earlier call of the answer ran its fn)."""
    if recorded is not None and recorded.elsewhere:
        raise CheckFailed(
            "fn ran on a thread of your own: a call there may still be running when the "
            "profile starts, beside the profiled call (and the profiler records only the "
            "thread that opened it). Call fn(*args) on the calling thread, warm-up and all, "
            "and synchronize before profiling"
        )
    if not calls and later:
        raise CheckFailed(
            "fn was never called in this call of slowest_op, though the earlier calls ran "
            "theirs: it returned a name kept from an earlier call (a cache keyed by fn's name "
            "or the device, a global), and every lambda is named <lambda>. Profile the fn you "
            "are given, in every call"
        )
    if not calls:
        raise CheckFailed(
            "fn was never called: slowest_op must run fn(*args) itself, once as a warm-up and "
            "once inside a torch.profiler.profile block, and return the operator that profile "
            "shows (a name written from memory is wrong on another workload)"
        )
    if not any(calls):
        raise CheckFailed(
            "fn ran, but never while the profiler was recording: call it inside the "
            "torch.profiler.profile block"
        )
    if calls[0]:
        raise CheckFailed(
            "the first call of fn was already profiled: call fn(*args) once before "
            "profiling (a warm-up), so that one-off costs do not pollute the profile"
        )
    if sum(calls) > 1:
        raise CheckFailed(
            f"fn ran {sum(calls)} times while the profiler was recording: profile one call of "
            "fn after the warm-up (a schedule's warm-up and active steps record too)"
        )
    after = calls[calls.index(True) + 1 :]
    if after:
        raise CheckFailed(
            f"fn ran {len(after)} more time(s) after the profiled call: once to warm up and "
            "once under the profiler is all it takes. Each extra call runs fn's work again, and "
            "its side effects (an optimizer step, a counter); time a call with the profile's "
            "own numbers, not another call"
        )


@contextmanager
def labels_opened(into: list | None = None):
    """Record (in the yielded list) the name of every ``record_function`` range opened while
    the profiler ran: each is an entry of ``key_averages()`` of its own, a label, no operator."""
    labels: list[str] = [] if into is None else into
    cls = torch.autograd.profiler.record_function  # torch.profiler.record_function too
    enter = cls.__enter__

    def recorded_enter(self):
        if torch.autograd._profiler_enabled():
            labels.append(self.name)
        return enter(self)

    with patched((cls, "__enter__", recorded_enter)):
        yield labels


def label_hint(got: str, what: str, device) -> str:
    """The hint for an answer that returned the label of its own ``record_function``."""
    return (
        f"on {device.type}, for {what}, you returned {got!r}, the label of your own "
        "record_function range, not an operator of fn: a label is an entry of key_averages() "
        "of its own, and on a GPU its row holds the device time of every kernel run inside "
        "it, more than any operator's. Leave the label out (or skip the entries whose "
        "is_user_annotation is True) and return an operator's .key"
    )


def _operators(fn, args) -> set[str]:
    """The ``aten::`` operators two profiled calls of ``fn(*args)`` run."""
    from torch.profiler import ProfilerActivity, profile

    keys: set[str] = set()
    for _ in range(2):
        with profile(activities=[ProfilerActivity.CPU]) as prof:
            fn(*args)
        # its calls, not key_averages(): a test may script the answer's tables through it
        keys |= {e.name for e in prof.events() if e.name.startswith("aten::")}
    return keys


def extra_operators_check(table, fn, args, what: str, known: dict) -> None:
    """Fail an answer whose own profile (``table``, what its ``key_averages()`` returned)
    lists ``aten::`` operators that ``fn`` never runs: work of its own inside the profile
    block. ``known`` caches ``fn``'s operators (the checker's own profile) per workload."""
    if table is None:
        return
    keys = {e.key for e in table if e.key.startswith("aten::")}
    if not keys:
        return
    if what not in known:
        known[what] = _operators(fn, args)
    extra = sorted(keys - known[what])
    if extra:
        raise CheckFailed(
            f"on cpu, for {what}, your profile lists {', '.join(extra)}, which fn(*args) never "
            "runs: work of your own inside the torch.profiler.profile block (a copy or clone of "
            "the arguments, say) is profiled with fn's and can lead the table, and so are the "
            "events of an earlier call that a profiler kept between calls (a global profiler, "
            "acc_events=True) still holds. Do that work before the block, and make a new "
            "profiler in each call: profile only the call fn(*args)"
        )


def sync_check(log, device) -> None:
    """Whether the answer waited for ``device`` between the warm-up and the profiled call
    (``log``: the calls of fn and the waits, ``("sync", profiler running, the GPU)``). A
    wait for another GPU (``torch.cuda.synchronize()`` with none named waits for the current
    one) leaves ``device``'s warm-up running into the profile, as the prompt's "synchronize
    ``device``" says."""
    first = next(i for i, e in enumerate(log) if e == ("call", False))
    profiled = next(i for i, e in enumerate(log) if e == ("call", True))
    waited = [e[2] for e in log[first:profiled] if e[:2] == ("sync", False)]
    if device.index in waited or (waited and device.index is None):
        return
    if waited:
        raise CheckFailed(
            f"on {device}, the host waited after the warm-up for cuda:{waited[0]}, not for "
            f"{device}, the GPU fn runs on: a wait that names no GPU (torch.cuda.synchronize(), "
            "torch.cuda.current_stream().synchronize()) is the current GPU's, so the warm-up's "
            "kernels on device run into the profile. Synchronize device itself: "
            "d2lgpu.sync(device) or torch.cuda.synchronize(device)"
        )
    raise CheckFailed(
        "on a GPU the warm-up call only queues its work: synchronize after it "
        "(d2lgpu.sync(device) or torch.cuda.synchronize(device)) before profiling starts, or "
        "the warm-up's kernels run into the profile"
    )


def gpu_column_hint(got: str, table, what: str, read) -> str | None:
    """The hint for an answer that, on a GPU, named the leader of the CPU's self time, or of
    the CPU's and the device's added (``read``: the device columns its own code read)."""
    rows = [e for e in table or [] if not profiler_own(e.key)]
    if not rows or got.startswith("cuda") or got in largest(rows, "self_device_time_total"):
        return None  # a CUDA runtime call has a hint of its own
    total = {e.key: e.self_cpu_time_total + e.self_device_time_total for e in rows}
    if read and total.get(got) == max(total.values()):
        return (
            f"on cuda, for {what}, you returned {got!r}, which leads self CPU time plus self "
            "device time: on a GPU the CPU's time is the launching of kernels, not the "
            "operator's work, and adding it lets an operator launched often but cheap on the "
            "device win. Rank by self_device_time_total alone"
        )
    if got in largest(rows, "self_cpu_time_total"):
        return (
            f"on cuda, for {what}, you returned {got!r}, which leads self CPU time "
            "(self_cpu_time_total): on a GPU the CPU columns only measure launching work. Rank "
            "by self_device_time_total when device is a GPU"
        )
    return None


def _product_and_exp(a, big):
    return a @ a, torch.exp(big)


def args_check(answer, passed: list[str], tries: int = 3) -> None:
    """The same ``fn`` twice, on other ``args`` whose slowest operator differs: a name kept
    from the first call (a cache keyed on ``fn`` alone) is the first call's, and the second
    call must warm up too. A busy machine can stall a short operator: the second call is asked
    again before failing."""
    gen, cpu = torch.Generator().manual_seed(61), torch.device("cpu")
    product = (torch.randn(512, 512, generator=gen), torch.randn(1000, generator=gen))
    exps = (torch.randn(8, 8, generator=gen), torch.randn(2_000_000, generator=gen))
    what = "exp of 2 million numbers next to an 8 x 8 product"
    calls: list[bool] = []
    given = list(product)  # the args the one recorded fn is called with now
    recorded = recording(_product_and_exp, calls, given)
    first = asked(answer, recorded, product, cpu, "a 512 x 512 product next to exp")
    for _ in range(tries):
        given[:], calls[:] = exps, []
        got = asked(answer, recorded, exps, cpu, what)
        if calls and calls[0]:
            raise CheckFailed(
                f"on cpu, one fn called with two sets of args: for {what}, the second, the first "
                "call of fn was already profiled: a warm-up skipped for an fn seen before. Other "
                "args (other shapes) bring their one-off costs again, and the caller may have "
                "changed anything since. Warm up in every call of slowest_op"
            )
        if calls:  # none: a name kept for fn, which the hint below names as such
            calls_check(calls, recorded, later=True)  # the first call ran fn
        if got == "aten::exp" or got != first:
            break
    else:
        raise CheckFailed(
            f"on cpu, one fn called with two sets of args: for {what} you returned {got!r}, "
            "what you returned for the same fn on a 512 x 512 product next to exp of 1,000 "
            "numbers; here aten::exp takes the time. The slowest operator "
            "depends on args too: a cache keyed on fn (or fn and device) keeps an earlier "
            "call's answer. Profile every call"
        )
    passed.append("the same fn on other args: profiled again")
