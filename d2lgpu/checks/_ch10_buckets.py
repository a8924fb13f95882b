"""``10.overlap_ddp``'s models and bucket rules (:mod:`._ch10_overlap`, :mod:`.ch10_ddp_by_hand`).

:func:`overlap_net` is the small MLP the answer wraps: an ``nn.Sequential``, or, for the run
on three ranks, the same layers registered in another order than forward runs them
(:class:`OutOfOrderNet`), so that backward's order of gradients is not the reverse of
``model.parameters()``. :func:`bucket_members` fills buckets from parameters in a given order
(DDP's rule or the one that never exceeds the cap), :func:`reverse_buckets` in DDP's reverse
order of ``model.parameters()``; :func:`bucket_numels` gives their sizes in
elements, and :func:`by_completion` puts buckets in the order their last gradient arrives.
:func:`early_launch` names a bucket launched before its last gradient was ready.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from ._ch10_by_hand import SEED
from ._util import CheckFailed

__all__ = [
    "call_itemsize",
    "check_buckets",
    "check_launch_dtype",
    "check_launched_when_ready",
    "OutOfOrderNet",
    "bucket_members",
    "bucket_numels",
    "by_completion",
    "early_launch",
    "overlap_net",
    "reverse_buckets",
]


class OutOfOrderNet(nn.Module):
    """Three layers registered as fc3, fc1, fc2 and run fc1, fc2, fc3: backward's gradients
    arrive as fc3's, fc2's, fc1's (bias first). In float64 with 512-byte buckets (9 and 7
    hidden units), DDP's buckets hold [fc2.bias, fc2.weight], [fc1.bias, fc1.weight,
    fc3.bias] and [fc3.weight]: the last completes first, the second's last-listed gradient
    arrives first of all, and buckets filled in arrival order hold other parameters."""

    def __init__(self):
        super().__init__()
        self.fc3, self.fc1, self.fc2 = nn.Linear(7, 3), nn.Linear(6, 9), nn.Linear(9, 7)

    def forward(self, x):
        return self.fc3(F.relu(self.fc2(F.relu(self.fc1(x)))))


def overlap_net(dtype=torch.float32, out_of_order=False):
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(SEED)
        if out_of_order:
            return OutOfOrderNet().to(dtype)
        net = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 16), nn.ReLU(),
                            nn.Linear(16, 3))  # fmt: skip
        # a buffer among the parameters (as BatchNorm's running statistics are): a walk over
        # state_dict() counts its 64 bytes, and closes the 268-byte cap's first bucket early
        net[2].register_buffer("running", torch.zeros(16))
        return net.to(dtype)


def bucket_members(sizes_bytes, cap, close_at_cap=True) -> list[list[int]]:
    """The positions (in ``sizes_bytes``' order) of each bucket's parameters, filled in that
    order. ``close_at_cap``: DDP's rule, a bucket closes once it holds ``cap`` bytes or more;
    otherwise a parameter that would take a non-empty bucket past ``cap`` opens the next."""
    buckets: list[list[int]] = []
    current: list[int] = []
    nbytes = 0
    for i, b in enumerate(sizes_bytes):
        if not close_at_cap and current and nbytes + b > cap:
            buckets.append(current)
            current, nbytes = [], 0
        current.append(i)
        nbytes += b
        if close_at_cap and nbytes >= cap:
            buckets.append(current)
            current, nbytes = [], 0
    return buckets + ([current] if current else [])


def reverse_buckets(sizes_bytes, cap, close_at_cap=True) -> list[list[int]]:
    """The buckets DDP's walk fills: parameters in reverse order of ``model.parameters()``
    (``sizes_bytes`` in model order), each bucket as its parameters' indices in model order."""
    last_first = list(range(len(sizes_bytes)))[::-1]
    members = bucket_members(sizes_bytes[::-1], cap, close_at_cap)
    return [[last_first[i] for i in b] for b in members]


def bucket_numels(sizes_bytes, numels, cap, close_at_cap=True) -> list[int]:
    """Bucket sizes (elements) when parameters, in the order given, fill buckets of ``cap``."""
    return [sum(numels[i] for i in m) for m in bucket_members(sizes_bytes, cap, close_at_cap)]


def by_completion(buckets: list[list[int]], arrival: list[int]) -> list[list[int]]:
    """``buckets`` (lists of parameter indices) in the order their last gradient arrived
    (``arrival``: parameter indices, first ready first); a parameter that never arrived last."""

    def done(bucket):
        return max(arrival.index(i) if i in arrival else len(arrival) for i in bucket)

    return sorted(buckets, key=done)


def early_launch(record, log, cap, step) -> str | None:
    """The hint for an all-reduce launched (in a step's ``log``) before the last gradient of
    every bucket of its size that either rule fills was ready, or None: a bucket launched
    from the hook of a parameter assumed to come last. ``record``: a rank's ``numels``,
    ``names`` and ``itemsize``."""
    numels, names = record["numels"], record["names"]
    sizes = [record.get("itemsize", 4) * n for n in numels]
    buckets = [b for rule in (True, False) for b in reverse_buckets(sizes, cap, rule)]
    ready: list[int] = []
    for event in log:
        if event[0] == "ready":
            ready.append(names.index(event[1]))
        elif event[0] == "launch":
            same = [b for b in buckets if sum(numels[i] for i in b) == event[1]]
            if same and all(any(i not in ready for i in b) for b in same):
                missing = next(names[i] for i in same[0] if i not in ready)
                return (
                    f"a bucket of {event[1]} elements (bucket_bytes={cap}, step {step}) was "
                    f"launched after {len(ready)} gradient(s), before its {missing}'s was ready: "
                    "backward's order of gradients depends on how forward uses the layers, not "
                    "on model.parameters(). Count each bucket's ready gradients and launch "
                    "when the count reaches its number of parameters, not from the hook of the "
                    "one you expect last"
                )
    return None


def call_itemsize(call) -> int:
    """The bytes of one element of a recorded collective's tensor (1 for an empty one)."""
    numel = 1
    for n in call.shape:
        numel *= n
    return max(1, call.nbytes // numel) if numel else 1


def check_launch_dtype(raw_logs, itemsize: int, cap: int) -> None:
    """Every bucket is sent in the gradients' dtype: a flat tensor made in another one
    (``torch.zeros(n)`` is float32) rounds them on the way."""
    for step, raw in enumerate(raw_logs):
        for entry in raw:
            if entry[0] != "call" or entry[1] != "launch" or entry[2].kind != "all_reduce":
                continue
            call = entry[2]
            if call.nbytes and call_itemsize(call) != itemsize:  # an empty one has no dtype here
                raise CheckFailed(
                    f"a bucket was all-reduced with {call_itemsize(call)} bytes an element, but "
                    f"the model's gradients take {itemsize} (bucket_bytes={cap}, step {step}): "
                    "its flat tensor was made in another dtype than the gradients' (torch.zeros(n) "
                    "and torch.empty(n) make float32 unless told otherwise), which rounds them on "
                    "the way. Make it in the gradients' dtype: torch.cat of their reshape(-1)s, or "
                    "dtype=p.grad.dtype"
                )


def check_buckets(launched, record, cap, step, log):
    """The buckets whose all-reduces carried ``launched`` elements at ``step`` (``record``:
    the rank's parameters; ``log``: the order of hooks and launches) are those of DDP's rule
    for ``cap``, each launched as its last gradient arrived; else the hint names the rule
    they followed."""
    numels, itemsize = record["numels"], record.get("itemsize", 4)
    sizes = [itemsize * n for n in numels]
    arrival = [record["names"].index(e[1]) for e in log if e[0] == "ready"]

    def as_launched(buckets):  # each launched as its last gradient arrives: their numels
        return [sum(numels[i] for i in b) for b in by_completion(buckets, arrival)]

    for rule in (True, False):
        buckets = reverse_buckets(sizes, cap, rule)
        if launched == as_launched(buckets):
            ordered = by_completion(buckets, arrival)
            check_launched_when_ready(ordered, arrival, log, cap, step)
            return
        if launched == [sum(numels[i] for i in b) for b in buckets]:  # in the order filled
            check_launched_when_ready(buckets, arrival, log, cap, step)
    expected = as_launched(reverse_buckets(sizes, cap))
    in_arrival = [bucket_numels([sizes[i] for i in arrival], [numels[i] for i in arrival], cap, r)
                  for r in (True, False)]  # fmt: skip
    if launched in in_arrival:
        raise CheckFailed(
            f"with bucket_bytes={cap} (step {step}) your buckets hold {launched} elements: "
            "filled in the order backward produced the gradients. That order depends on how "
            "forward uses the layers (here they are registered in another order than forward "
            "runs them); the rule is the reverse order of model.parameters(), fixed in "
            f"__init__: {expected}, each launched as its last gradient arrives"
        )
    if itemsize != 4 and launched == as_launched(reverse_buckets([4 * n for n in numels], cap)):
        raise CheckFailed(
            f"with bucket_bytes={cap} (step {step}) your buckets hold {launched} elements, as if "
            f"each took 4 bytes, float32's; this model's take {itemsize}. A parameter takes "
            f"p.numel() * p.element_size() bytes; in bytes the buckets are {expected}. (Or "
            "the buckets were planned for an earlier float32 model of these shapes and kept, on "
            "the class or in a global: plan each instance's own in __init__)"
        )
    # > first: where it and elements give the same buckets (268), 512 told them apart
    if launched == as_launched(reverse_buckets(sizes, cap + 1)):
        raise CheckFailed(
            f"with bucket_bytes={cap} (step {step}) your buckets hold {launched} elements: a "
            "bucket closed only once it held MORE than bucket_bytes (>). DDP closes it once it "
            f"holds bucket_bytes or more (>=), which gives {expected}"
        )
    if launched == as_launched(reverse_buckets(numels, cap)):
        raise CheckFailed(
            f"with bucket_bytes={cap} (step {step}) your buckets hold {launched} elements: "
            "the buckets were filled counting elements (numel), not bytes. A parameter takes "
            f"p.numel() * p.element_size() bytes; in bytes the buckets are {expected}"
        )
    forward = [bucket_numels(sizes, numels, cap, rule) for rule in (True, False)]
    if any(sorted(launched) == sorted(f) for f in forward):
        raise CheckFailed(
            f"buckets in forward order (bucket_bytes={cap}): your buckets hold {launched} "
            "elements, as if filled from the first layer; backward produces the last layer's "
            f"gradients first, so fill them in reverse order of model.parameters(): {expected}"
        )
    per_grad = len(launched) > len(expected) and sorted(launched) == sorted(numels)
    raise CheckFailed(
        f"with bucket_bytes={cap} (step {step}) your all-reduces carried {launched} elements, in "
        + (
            "that order: one all-reduce per gradient, not one per bucket. Flatten each bucket "
            "(torch.cat of its gradients' reshape(-1)) and all-reduce it once; "
            if per_grad
            else "that order; "
        )  # fmt: skip
        + "buckets filled in reverse order of model.parameters(), each closed once it "
        f"holds bucket_bytes or more, carry {expected}"
    )


def check_launched_when_ready(buckets, arrival, log, cap, step):
    """Each bucket (parameter indices, in launch order) launched as soon as its last gradient
    was ready (``arrival``: the parameters in the order they were ready), read from the log."""
    last = [1 + max(arrival.index(i) for i in b) for b in buckets]  # gradients ready by then
    ready, j = 0, 0
    for event in log:
        if event[0] == "ready":
            ready += 1
        elif event[0] == "launch":
            if ready > last[j]:
                raise CheckFailed(
                    f"bucket {j} (bucket_bytes={cap}, step {step}) was launched only after "
                    f"{ready} gradients were ready, though its last one was gradient "
                    f"{last[j]}: launch each bucket from the hook of its own last gradient, "
                    "not later, so that it overlaps the rest of backward"
                )
            j += 1
