"""``06.slowest_op``'s workloads: functions whose slowest operator the checker knows.

Each is ``(fn, args, the operator wanted, what it is, {wrong answer: its hint})``:
a large product next to 20 tiny additions (the most calls, little time), an exp of
millions of numbers next to a small product, a softmax (whose aten::_softmax does the
work) next to a larger allocation (the most memory, little time), and an operator called 80 times whose
calls add up to more than one long product (ranking by time per call picks the
product), on 8 input shapes (ranking the rows of ``group_by_input_shape=True`` picks
the product too). Sized for the CPU by default; :func:`workloads` takes a GPU's sizes too.

Also the hints for the wrong answers every workload shares: an operator named for its total
time or its number of calls (in the answer's own profile too), a CUDA runtime call, an entry of
the profiler's own work.

What it is not: the checker; :mod:`d2lgpu.checks.ch06_performance` runs them.
"""

from __future__ import annotations

import torch

from ._ch06_custom_op import other_namespace

__all__ = [
    "MANY_CALLS", "MANY_SITES", "MISSES", "RUNTIME_CALL", "backward_skipped",
    "backward_workload", "by_group_hint", "largest", "self_leaders", "self_rankings",
    "many_calls_workload", "profiler_own", "summed_by_name", "text_led", "workloads",
    "wrong_column",
]  # fmt: skip


def workloads(device=None, n: int = 512, exp_numel: int = 2_000_000):
    """Two workloads with the operator that takes their time: sized for the CPU by default,
    and (4096, 64 million) for a real GPU, where kernels must be long to stand out.

    Each is ``(fn, args, the operator wanted, what it is, {wrong answer: its hint})``."""
    device = torch.device(device or "cpu")
    gen = torch.Generator(device=device).manual_seed(6)

    def randn(*shape):
        return torch.randn(*shape, device=device, generator=gen)

    a, x = randn(n, n), torch.zeros(8, device=device)

    def product_and_adds(a, x):
        y = a @ a  # one large product: aten::matmul calls aten::mm, which does the work
        for _ in range(20):
            x = x + 1  # many tiny additions: the most calls, little time
        return y, x

    big, small = randn(exp_numel), randn(32, 32)

    def exp_and_small_product(big, small):
        return torch.exp(big), small @ small

    numbers = randn(exp_numel)

    def softmax_and_allocation(numbers):
        # aten::softmax calls aten::_softmax, which does the work; the allocation takes the
        # most memory (four times the softmax's output) and almost no time
        return torch.softmax(numbers, dim=0), torch.empty(4 * exp_numel, device=numbers.device)

    millions = f"{exp_numel / 1e6:g} million"
    softmax_misses = {
        "aten::softmax": (
            "you returned aten::softmax, which calls aten::_softmax, the operator that does the "
            "work: keep the entries whose names start with aten::_ (only the profiler's own "
            "entries and runtime calls need leaving out)"
        )
    }
    return [
        (
            product_and_adds,
            (a, x),
            "aten::mm",
            f"a {n} x {n} product next to 20 tiny additions",
            {},
        ),
        (
            exp_and_small_product,
            (big, small),
            "aten::exp",
            f"exp of {millions} numbers next to a 32 x 32 product",
            {},
        ),
        (
            softmax_and_allocation,
            (numbers,),
            "aten::_softmax",
            f"a softmax over {millions} numbers next to an allocation of four times as many",
            softmax_misses,
        ),
    ]


# Where the slowest operator is called many times: its total, not one call, is what counts.
# Its calls run on 8 input shapes, so that no one shape's share of its time (an entry of
# key_averages(group_by_input_shape=True)) is as long as the product.
MANY_CALLS, MANY_NUMEL, ONE_PRODUCT_N, MANY_SITES = 80, 250_000, 512, 4
_SHAPES = [(250_000,), (125_000, 2), (62_500, 4), (50_000, 5), (25_000, 10), (500, 500)]
_SHAPES += [(10_000, 25), (5_000, 50)]  # 8 shapes of 250,000 numbers each
MANY_SHAPES = len(_SHAPES)


def many_calls_workload():
    """An operator called 80 times, from 4 places, on 8 input shapes of 250,000 numbers each,
    whose calls add up to more than one long product: ranking by time per call picks the
    product (each of its calls is ~25x longer on a CPU), and so does ranking the rows of one
    shape each (10 calls: less than half the product's time), or of one place each (20)."""
    gen = torch.Generator().manual_seed(7)
    a = torch.randn(ONE_PRODUCT_N, ONE_PRODUCT_N, generator=gen)
    vs = [torch.randn(MANY_NUMEL, generator=gen).reshape(shape) for shape in _SHAPES]

    def one_product_many_exps(a, vs):
        y = a @ a
        for i in range(0, MANY_CALLS, MANY_SITES):  # from 4 places: a quarter of the calls each
            z = torch.exp(vs[i % len(vs)])
            z = torch.exp(vs[(i + 1) % len(vs)])
            z = torch.exp(vs[(i + 2) % len(vs)])
            z = torch.exp(vs[(i + 3) % len(vs)])
        return y, z

    what = (
        f"one {ONE_PRODUCT_N} x {ONE_PRODUCT_N} product next to {MANY_CALLS} exps of "
        f"{MANY_NUMEL:,} numbers"
    )
    per_call = (
        f"you returned aten::mm, the operator whose single call is the longest; aten::exp, "
        f"called {MANY_CALLS} times, takes more time in all. Rank by the total self time over "
        "all calls (self_cpu_time_total), not by the time per call"
    )
    return one_product_many_exps, (a, vs), "aten::exp", what, {"aten::mm": per_call}


def backward_workload():
    """A training step's shape: a convolution's forward and backward, where the backward
    (aten::convolution_backward: gradients of both the images and the filters) does about
    twice the forward's work. An answer that leaves out the backward's rows, or that runs fn
    with gradients switched off, misses it."""
    gen = torch.Generator().manual_seed(8)
    images = torch.randn(16, 16, 32, 32, generator=gen).requires_grad_()
    filters = torch.randn(32, 16, 3, 3, generator=gen).requires_grad_()

    def conv_step(images, filters):
        torch.nn.functional.conv2d(images, filters, padding=1).sum().backward()

    what = "a 3 x 3 convolution of 16 images of 16 x 32 x 32, forward and backward"
    hint = {"aten::mkldnn_convolution": backward_skipped("aten::mkldnn_convolution")}
    return conv_step, (images, filters), "aten::convolution_backward", what, hint


def backward_skipped(got: str, table=None) -> str | None:
    """The hint for an answer that returned ``got``, the leader of its own profile once the
    backward's rows are left out (``table``: that profile; without one, it is not asked)."""
    if table is not None:
        rows = [e for e in table if not profiler_own(e.key)]
        kept = [e for e in rows if "backward" not in e.key.lower()]
        if not kept or max(kept, key=lambda e: e.self_cpu_time_total).key != got:
            return None
        if max(rows, key=lambda e: e.self_cpu_time_total).key == got:
            return None  # it leads the backward's rows too there: a busy machine's profile
    return (
        f"you returned {got}, which leads only once the backward's rows are left out: "
        "aten::convolution_backward, the convolution's backward, has more self time (it "
        "computes the gradients of both the images and the filters). Keep the backward's "
        "operators in the ranking: in a training step they are operators like any other, "
        "and often the slowest"
    )


def by_group_hint(got: str, want: str, what: str, rows: int, how: str) -> str:
    """The hint for an answer that ranked the rows of ``key_averages(<how>)`` (grouped by input
    shape, call stack or both) where ``want`` was split over ``rows`` rows (more than one)."""
    split = (
        f"grouping by input shape splits an operator's time into one row per shape, and "
        f"{want}, run here on {rows} shapes,"
        if how == "group_by_input_shape=True"
        else f"grouping by call stack splits an operator's time into one row per place it is "
        f"called from, and {want}, split here into {rows} rows,"
    )
    return (
        f"for {what}, you returned {got!r} from prof.key_averages({how}): {split} has no "
        "single row as long as its total. Rank the per-operator totals of "
        "prof.key_averages() (no grouping) by self time"
    )


MISSES = {
    "aten::matmul": (
        "you returned aten::matmul, whose *total* time includes aten::mm, the operator it "
        "calls: sort by self time (self_cpu_time_total, or self_device_time_total for a GPU) "
        "to find where the work is done"
    ),
    "aten::add": (
        "you returned aten::add, the operator called most often (count), not the one that "
        "takes the most time: compare self times"
    ),
}
# A CUDA runtime call (cudaLaunchKernel, cudaDeviceSynchronize, ...) is the CPU's side of GPU
# work: which one has the most CPU time depends on the machine, the mistake is the same.
RUNTIME_CALL = (
    "you returned {got}, a CUDA runtime call: its time is the CPU's, launching or waiting "
    "for kernels; on a GPU the work is the device's, so sort by self_device_time_total"
)


# Entries of key_averages() that are the profiler's own work, not an operator of fn. The first
# was seen on an H200 as the largest CPU self time of a CPU workload, in a profile that asked
# for ProfilerActivity.CUDA although device was the CPU (CUPTI's buffer for GPU activity).
PROFILER_OWN = ("Activity Buffer Request", "Record Window End", "[memory]")


def profiler_own(got: str) -> bool:
    return got in PROFILER_OWN or got.startswith("ProfilerStep#")


# Other columns of key_averages() an answer may have ranked by: what leading each says.
_COLUMNS = (
    (
        "cpu_time_total",
        "the largest *total* time (cpu_time_total, which includes the operators it calls)",
    ),
    ("count", "the most calls (count): it is the operator called most often"),
    ("cpu_time", "the longest time per call (cpu_time)"),
    ("self_cpu_memory_usage", "the most memory allocated (self_cpu_memory_usage)"),
    ("cpu_memory_usage", "the most memory allocated with its callees (cpu_memory_usage)"),
)


def wrong_column(got: str, table) -> str | None:
    """The hint for an answer that named, in its own profile, the leader of another column
    than self time, or the second by self time: which operator that is depends on the
    machine, the mistake does not. A column whose entries are all equal leads nowhere."""
    rows = [e for e in table if not profiler_own(e.key)]
    if got in self_leaders(rows):
        return None
    facts = [
        says
        for column, says in _COLUMNS
        if len({getattr(e, column) for e in rows}) > 1 and got in largest(rows, column)
    ]
    by_self = sorted(rows, key=lambda e: e.self_cpu_time_total, reverse=True)
    if [e.key for e in by_self[1:2]] == [got]:
        facts.append("the second-largest self time")
    elif len(by_self) > 2 and got in {
        e.key for e in by_self if e.self_cpu_time_total <= by_self[-1].self_cpu_time_total
    }:
        # named first: min(), or the last entry of a descending sort, is a mistake of its own
        facts.insert(0, "the smallest self time: min() or an ascending sort finds the fastest")
    facts += _orders_led(got, rows)
    if not facts:
        return None
    return (
        f"you returned {got}, which in your own profile has {'; '.join(facts)}. The work is "
        "done where the self time is: sort by self time (self_cpu_time_total) and take the "
        "first entry"
    )


def _orders_led(got: str, rows) -> list[str]:
    """What else than a column ``got`` leads: the order of the names, or of the times as text
    (``self_cpu_time_total_str``, where "987.000us" sorts above "12.345ms")."""
    if len(rows) < 3:
        return []
    names, says = sorted(e.key for e in rows), []
    if got in (names[0], names[-1]):
        first = "first" if got == names[0] else "last"
        says.append(f"the name {first} in alphabetical order (a key of e.key compares names)")
    text = text_led(got, rows)
    return says + ([text] if text else [])


def text_led(got: str, rows) -> str | None:
    """Whether ``got`` has the largest time compared as text, a ``*_str`` column."""
    for column in ("self_cpu_time_total_str", "cpu_time_total_str"):
        texts = {e.key: getattr(e, column, "") for e in rows if not profiler_own(e.key)}
        if len(set(texts.values())) > 1 and texts.get(got) == max(texts.values()):
            return f"the largest time compared as text ({column}: '9.0us' sorts above '12ms')"
    return None


def largest(table, attr: str) -> set[str]:
    """The keys of a table's entries (the profiler's own left out) with the largest ``attr``."""
    times = {e.key: getattr(e, attr) for e in table if not profiler_own(e.key)}
    top = max(times.values(), default=0)
    return {k for k, t in times.items() if top > 0 and t >= top * (1 - 1e-9)}


def self_rankings(table) -> list[set[str]]:
    """The leaders of ``table`` by self time in each ranking the exercise accepts: all the
    entries, the entries but the answer's own labels (a ``record_function`` range's row,
    ``is_user_annotation``, left out as the hint on labels says), and the ``aten::``
    operators alone (a stalled wrapper can lead the others), except where an operator of
    another namespace leads (a custom operator is no wrapper)."""
    ops = [e for e in table if e.key.startswith("aten::")]
    unlabelled = [e for e in table if not getattr(e, "is_user_annotation", False)]
    tops = [largest(t, "self_cpu_time_total") for t in (table, unlabelled)]
    led_by_operator = any(other_namespace(k) for k in tops[1])
    return tops + ([] if led_by_operator else [largest(ops, "self_cpu_time_total")])


def self_leaders(table) -> set[str]:
    """The entries that lead ``table`` by self time in either ranking (:func:`self_rankings`)."""
    return set().union(*self_rankings(table))


def summed_by_name(events):
    """What ``events()`` an answer read sums to per operator (``key_averages()``'s rows), and
    the key of its single call with the most self time: an answer that named that call ranked
    the calls, not the operators."""
    rows = events.key_averages()
    calls = [e for e in events if not profiler_own(e.key)]
    device = any(e.self_device_time_total for e in calls)
    column = "self_device_time_total" if device else "self_cpu_time_total"
    one = max(calls, key=lambda e: getattr(e, column)).key if calls else None
    return rows, one
