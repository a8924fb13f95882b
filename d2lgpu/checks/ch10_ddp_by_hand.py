"""Checkers of chapter 10's hand-built DDP: ``10.overlap_ddp`` and ``10.shard_optimizer``.

``10.overlap_ddp``: the answer is a class ``OverlappedDDP(model, bucket_bytes)`` whose
``__init__`` registers ``register_post_accumulate_grad_hook`` hooks that launch
``dist.all_reduce(..., async_op=True)`` on buckets of gradients as they fill, and whose
``finish()``, called after ``loss.backward()`` and before ``optimizer.step()``, waits on
every handle and leaves the average over the ranks in each ``p.grad``. Buckets are filled in
reverse order of ``model.parameters()`` (the order backward produces them), and a bucket
is closed once it holds ``bucket_bytes`` or more (DDP's rule; closing before it would exceed
the cap is accepted too). The checker runs it on two gloo ranks (:mod:`._ranks`) with a
bucket per parameter and with a cap that makes two buckets, then on three ranks with the
second cap (so that a division by 2 written in is seen); it records, in each rank, the
order of the hooks' calls, the all-reduces' launches and their waits, and reads from it:
an all-reduce launched before ``backward`` returned, each bucket launched from the hook of
its own last gradient (no later), no wait (and no blocking all-reduce)
inside backward, every handle waited by ``finish``, no gradient sent twice, and the bucket
sizes; then the gradients against one process on the global batch.

``10.shard_optimizer`` (ZeRO-1): the answer is a class ``ShardedOptimizer(params,
optimizer_cls, **kwargs)`` with ``step()`` and ``zero_grad()``: each rank builds
``optimizer_cls`` over its own share of the parameters only, steps it, then broadcasts each
parameter from the rank that owns it. The checker averages the gradients itself (as DDP
does), runs 3 Adam steps on 2 and on 4 gloo ranks (with other keyword arguments on each,
none at Adam's defaults: ``ADAM_KWARGS``), compares the parameters with DDP's
(one process on the global batch) within 1e-6, and counts each rank's optimizer-state bytes
against 1/n of the whole (the model's 8 parameters are the same size, so an even split
exists).
"""

from __future__ import annotations

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch import nn

from . import _ranks
from ._util import CheckFailed, one_cpu_thread

__all__ = ["check_overlap_ddp", "check_shard_optimizer", "bucket_numels"]

STEPS, BATCH, SEED = 3, 16, 5
SGD_LR, ADAM_LR = 0.1, 0.01
# the keyword arguments ShardedOptimizer passes on to optimizer_cls, per world size: none
# left at Adam's defaults, and not the same twice, so that values written in are seen
ADAM_KWARGS: dict[int, dict] = {
    2: {"lr": ADAM_LR, "betas": (0.85, 0.99)},
    4: {"lr": 2 * ADAM_LR, "weight_decay": 0.01},
}
BUCKET_CAPS = (1, 512)  # bytes: a bucket per parameter, then two buckets of the OverlapNet


def _overlap_net():
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(SEED)
        return nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 16), nn.ReLU(),
                             nn.Linear(16, 3))  # fmt: skip


def _zero_net():
    """8 parameters of the same size: an even split over 2 or 4 ranks exists."""
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(SEED)
        layers = []
        for i in range(8):
            layers += [nn.Linear(16, 16, bias=False)] + ([nn.ReLU()] if i < 7 else [])
        return nn.Sequential(*layers)


def _batch(step, features):
    gen = torch.Generator().manual_seed(200 + step)
    classes = 3 if features == 6 else 16
    return (torch.randn(BATCH, features, generator=gen),
            torch.randint(0, classes, (BATCH,), generator=gen))  # fmt: skip


def _share(rank, world):
    return slice(rank * BATCH // world, (rank + 1) * BATCH // world)


def bucket_numels(sizes_bytes, numels, cap, close_at_cap=True):
    """Bucket sizes (elements) when parameters, in the order given, fill buckets of ``cap``.

    ``close_at_cap``: DDP's rule, a bucket closes once it holds ``cap`` bytes or more;
    otherwise a parameter that would take a non-empty bucket past ``cap`` opens the next.
    """
    buckets, nbytes, count = [], 0, 0
    for b, n in zip(sizes_bytes, numels, strict=True):
        if not close_at_cap and count and nbytes + b > cap:
            buckets.append(count)
            nbytes, count = 0, 0
        nbytes, count = nbytes + b, count + n
        if close_at_cap and nbytes >= cap:
            buckets.append(count)
            nbytes, count = 0, 0
    return buckets + ([count] if count else [])


# --- 10.overlap_ddp: what happens in a rank ------------------------------------------------


class _Handle:
    """The learner's handle of an async all-reduce: its wait is recorded, then done."""

    def __init__(self, work, index, log, state):
        self._work, self._index, self._log, self._state = work, index, log, state

    def wait(self, *args, **kwargs):
        self._log.append(("wait", self._index, self._state["in_backward"]))
        return self._work.wait(*args, **kwargs)

    def __getattr__(self, name):
        return getattr(self._work, name)


def _watch_all_reduce(log, state):
    real = dist.all_reduce

    def all_reduce(tensor, op=dist.ReduceOp.SUM, group=None, async_op=False):
        index = sum(1 for e in log if e[0] == "launch")
        log.append(("launch", tensor.numel(), async_op, state["in_backward"]))
        work = real(tensor, op=op, group=group, async_op=async_op)
        return _Handle(work, index, log, state) if async_op else work

    dist.all_reduce = all_reduce  # only in this forked rank, which exits after the check


def _grads_of(model, x, y):
    loss = F.cross_entropy(model(x), y)
    return [g.detach() for g in torch.autograd.grad(loss, list(model.parameters()))]


def _overlap_job(answer, rank, world, cap):
    model = _overlap_net()
    names = [n for n, _ in model.named_parameters()]
    log, state = [], {"in_backward": False}
    for name, p in model.named_parameters():  # first: these run before the learner's hooks
        p.register_post_accumulate_grad_hook(lambda p, name=name: log.append(("ready", name)))
    _watch_all_reduce(log, state)
    ddp = answer(model, cap)
    if not callable(getattr(ddp, "finish", None)):
        return {
            "error": f"{type(ddp).__name__} has no method finish(): add finish(self), which "
            "waits on the handles after backward"
        }
    hooks = [len(getattr(p, "_post_accumulate_grad_hooks", None) or ()) for p in model.parameters()]
    if max(hooks) < 2:  # only the checker's own
        return {"error": _NO_HOOK}
    opt = torch.optim.SGD(model.parameters(), lr=SGD_LR)
    shadow = _overlap_net()
    steps = []
    for step in range(STEPS):
        x, y = _batch(step, 6)
        shadow.load_state_dict(model.state_dict())
        # what DDP leaves: the average of the ranks' gradients (the global batch's when the
        # shares are equal)
        shares = [_grads_of(shadow, x[_share(r, world)], y[_share(r, world)]) for r in range(world)]
        whole = [sum(gs) / world for gs in zip(*shares, strict=True)]
        local = shares[rank]
        opt.zero_grad()
        del log[:]
        state["in_backward"] = True
        F.cross_entropy(model(x[_share(rank, world)]), y[_share(rank, world)]).backward()
        state["in_backward"] = False
        log.append(("backward returned",))
        ddp.finish()
        log.append(("finish returned",))
        got = [None if p.grad is None else p.grad.detach().clone() for p in model.parameters()]
        steps.append({"log": list(log), "whole": whole, "local": local, "got": got})
        opt.step()
    return {"names": names, "steps": steps,
            "numels": [p.numel() for p in model.parameters()],
            "final": [p.detach().clone() for p in model.parameters()]}  # fmt: skip


_NO_HOOK = (
    "no parameter has a hook registered with p.register_post_accumulate_grad_hook(hook): "
    "register one on every parameter in __init__; autograd calls hook(p) once p.grad holds "
    "this step's gradient (p.register_hook runs earlier, on the gradient before it is "
    "accumulated, when p.grad is not set yet)"
)


def _overlap_reference():
    model = _overlap_net()
    opt = torch.optim.SGD(model.parameters(), lr=SGD_LR)
    for step in range(STEPS):
        x, y = _batch(step, 6)
        opt.zero_grad()
        F.cross_entropy(model(x), y).backward()
        opt.step()
    return [p.detach().clone() for p in model.parameters()]


# --- 10.overlap_ddp: reading what the ranks recorded ---------------------------------------

_WAIT_IN_HOOK = (
    "waiting inside the hook: {what} while backward was still running, so backward stops "
    "until that all-reduce is done and nothing overlaps. Keep the handle "
    "(dist.all_reduce(..., async_op=True)) and wait on it in finish(), before the step"
)


def _read_log(log, cap, step, total):
    launches = [e for e in log if e[0] == "launch"]
    where = f"(bucket_bytes={cap}, step {step})"
    if not launches and step > 0:
        raise CheckFailed(
            f"no dist.all_reduce in step {step}, though step 0 had some (bucket_bytes={cap}): "
            "the hooks run every step; reset what counts a bucket's ready gradients (and the "
            "list of handles) in finish(), ready for the next step"
        )
    if not launches:
        raise CheckFailed(
            f"no dist.all_reduce was called {where}: register a hook on each parameter "
            "(p.register_post_accumulate_grad_hook) that launches the all-reduce of its bucket "
            "(call it as dist.all_reduce, so that the checker sees it)"
        )
    sent = sum(e[1] for e in launches)
    if sent > total:
        raise CheckFailed(
            f"a bucket sent twice {where}: your all-reduces carried {sent} elements for "
            f"{total} elements of gradients. Launch each bucket once, when its last gradient "
            "arrives, and reset the count of ready gradients in finish() for the next step"
        )
    for e in log:
        if e[0] == "wait" and e[2]:
            raise CheckFailed(_WAIT_IN_HOOK.format(what="a handle was waited on") + f" {where}")
        if e[0] == "launch" and e[3] and not e[2]:
            raise CheckFailed(
                _WAIT_IN_HOOK.format(what="an all_reduce without async_op=True blocked")
                + f" {where}"
            )
    if not any(e[3] for e in launches):
        raise CheckFailed(
            f"every all-reduce was launched after backward returned {where}: launch them from "
            "the hooks, as each bucket fills, so that they overlap the rest of backward"
        )
    finish = log.index(("finish returned",))
    waited = {e[1] for e in log[:finish] if e[0] == "wait"}
    async_launches = [i for i, e in enumerate(launches) if e[2]]
    missing = [i for i in async_launches if i not in waited]
    if missing:
        raise CheckFailed(
            f"{len(missing)} of {len(async_launches)} handles were never waited on before "
            f"finish() returned {where}: call handle.wait() on every one in finish(), before "
            "the gradients are read (the all-reduce may not be done yet)"
        )
    return [e[1] for e in launches]


def _compare_overlap_grads(record, world, cap, step):
    s = record["steps"][step]
    for name, got, whole, local in zip(record["names"], s["got"], s["whole"], s["local"],
                                       strict=True):  # fmt: skip
        what = f"{name}'s gradient (bucket_bytes={cap}, step {step})"
        if got is None:
            raise CheckFailed(f"{what} is None after finish(): leave the average in p.grad")

        def close(value, got=got):
            return torch.allclose(got, value, rtol=1e-5, atol=1e-7)

        if close(whole):
            continue
        if close(whole * world):
            raise CheckFailed(
                f"{what} is the sum over the ranks: forgetting to divide by "
                "dist.get_world_size() (before the all-reduce, or after it in finish())"
            )
        if close(local) and not close(whole):
            raise CheckFailed(
                f"{what} was never reduced (it is still this rank's own): a parameter never "
                "reduced. Put every parameter in a bucket, launch the last, partly filled "
                "bucket too, and copy the averaged buckets back into p.grad in finish()"
            )
        if close(whole / world):
            raise CheckFailed(f"{what} is divided by the world size twice")
        if world != 2 and close(whole * world / 2):
            raise CheckFailed(
                f"{what} ({world} ranks) is divided by 2, not by the world size: divide by "
                "dist.get_world_size()"
            )
        err = (got - whole).abs().max().item()
        raise CheckFailed(
            f"{what} is not the average over the ranks (largest difference {err:.3g}): each "
            "p.grad must end as the sum over the ranks divided by the world size"
        )


def _check_buckets(launched, record, cap, step, log):
    numels = record["numels"]
    sizes = [4 * n for n in numels]
    expected = [bucket_numels(sizes[::-1], numels[::-1], cap, rule) for rule in (True, False)]
    if any(launched == e for e in expected):
        _check_launched_when_ready(launched, numels[::-1], log, cap, step)
        return
    forward = [bucket_numels(sizes, numels, cap, rule) for rule in (True, False)]
    if any(sorted(launched) == sorted(f) for f in forward):
        raise CheckFailed(
            f"buckets in forward order (bucket_bytes={cap}): your buckets hold {launched} "
            "elements, as if filled from the first layer; backward produces the last layer's "
            f"gradients first, so fill them in reverse order of model.parameters(): {expected[0]}"
        )
    raise CheckFailed(
        f"with bucket_bytes={cap} (step {step}) your all-reduces carried {launched} elements, in "
        f"that order; buckets filled in reverse order of model.parameters(), each closed once it "
        f"holds bucket_bytes or more, carry {expected[0]}"
    )


def _check_launched_when_ready(launched, numels, log, cap, step):
    """Each bucket launched as soon as its last gradient was ready, read from the log's order."""
    counts, i = [], 0  # parameters in each bucket, from the buckets' sizes
    for bucket in launched:
        filled = 0
        while filled < bucket:
            filled, i = filled + numels[i], i + 1
        counts.append(i)
    ready, j = 0, 0
    for event in log:
        if event[0] == "ready":
            ready += 1
        elif event[0] == "launch":
            if ready > counts[j]:
                raise CheckFailed(
                    f"bucket {j} (bucket_bytes={cap}, step {step}) was launched only after "
                    f"{ready} gradients were ready, though its last one was gradient "
                    f"{counts[j]}: launch each bucket from the hook of its own last gradient, "
                    "not later, so that it overlaps the rest of backward"
                )
            j += 1


@one_cpu_thread
def check_overlap_ddp(answer, passed: list[str]) -> None:
    """``10.overlap_ddp``: hooks, async all-reduces and buckets, on 2 gloo ranks."""
    if not callable(answer):
        raise CheckFailed(f"the answer must be the class OverlappedDDP, got {answer!r}")
    reference = _overlap_reference()
    for cap in BUCKET_CAPS:
        records = _overlap_run(answer, cap, _ranks.WORLD)
        world = len(records)
        for rank, record in enumerate(records):
            for name, got, ref in zip(record["names"], record["final"], reference, strict=True):
                if not torch.allclose(got, ref, rtol=1e-4, atol=1e-6):
                    raise CheckFailed(
                        f"after {STEPS} steps rank {rank}'s {name} differs from one process "
                        "trained on the global batch, though each step's gradients were right"
                    )
        what = "a bucket per parameter" if cap == 1 else f"buckets of {cap} bytes"
        passed.append(
            f"{what}: each step every bucket launched from its last gradient's hook, before "
            "backward returned; none waited inside it; every handle waited in finish(); the "
            "buckets in reverse order"
        )
    passed.append(
        f"gradients equal one process on the global batch, on {world} gloo ranks, "
        f"{STEPS} steps; final parameters too"
    )
    _overlap_run(answer, BUCKET_CAPS[-1], 3)  # a division by 2 written in shows on 3 ranks
    passed.append(
        f"on 3 gloo ranks too ({BUCKET_CAPS[-1]}-byte buckets): the average of the ranks' "
        "gradients, each bucket launched from its last gradient's hook"
    )


def _overlap_run(answer, cap, world):
    """Run the answer on ``world`` ranks with buckets of ``cap`` bytes; check each step's
    log and gradients on every rank; the ranks' records."""
    records = _ranks.run_ranks(answer, world, job=_CapJob(cap))
    for record in records:
        if "error" in record:
            raise CheckFailed(record["error"])
    total = sum(records[0]["numels"])
    for step in range(STEPS):
        for record in records:
            launched = _read_log(record["steps"][step]["log"], cap, step, total)
            _compare_overlap_grads(record, world, cap, step)
            _check_buckets(launched, record, cap, step, record["steps"][step]["log"])
    return records


class _CapJob:
    """``_overlap_job`` with a bucket size, picklable by reference for the forked ranks."""

    def __init__(self, cap):
        self.cap = cap

    def __call__(self, answer, rank, world):
        return _overlap_job(answer, rank, world, self.cap)


# --- 10.shard_optimizer --------------------------------------------------------------------

_OPTIMIZERS: list = []  # in a rank: every optimizer the learner built


class _RecordedAdam(torch.optim.Adam):
    """Adam that the checker can find: each one built joins ``_OPTIMIZERS``."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _OPTIMIZERS.append(self)


def _state_bytes(params):
    """Optimizer-state bytes per parameter index, summed over the optimizers built here."""
    index = {id(p): i for i, p in enumerate(params)}
    held: dict[int, int] = {}
    for opt in _OPTIMIZERS:
        for p, state in opt.state.items():
            nbytes = sum(t.nbytes for t in state.values() if torch.is_tensor(t) and t.dim() > 0)
            i = index.get(id(p), -1)
            held[i] = held.get(i, 0) + nbytes
    return held


def _average_grads(model, world):
    """What DDP does before the step: the mean of each gradient over the ranks."""
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad /= world


def _zero_job(answer, rank, world):
    del _OPTIMIZERS[:]
    model = _zero_net()
    opt = answer(model.parameters(), _RecordedAdam, **ADAM_KWARGS[world])
    for name in ("step", "zero_grad"):
        if not callable(getattr(opt, name, None)):
            return {"error": f"{type(opt).__name__} has no method {name}()"}
    agree = []
    for step in range(STEPS):
        x, y = _batch(step, 16)
        opt.zero_grad()
        F.cross_entropy(model(x[_share(rank, world)]), y[_share(rank, world)]).backward()
        _average_grads(model, world)
        opt.step()
        agree.append([p.detach().clone() for p in model.parameters()])
    params = list(model.parameters())
    return {"params": agree, "state": _state_bytes(params), "optimizers": len(_OPTIMIZERS)}


def _zero_reference(world, keep_state=True, kwargs=None):
    """DDP with Adam, in one process: per-rank gradients averaged, then the step."""
    kwargs = ADAM_KWARGS[world] if kwargs is None else kwargs
    model = _zero_net()
    opt = torch.optim.Adam(model.parameters(), **kwargs)
    out = []
    for step in range(STEPS):
        if not keep_state:
            opt = torch.optim.Adam(model.parameters(), **kwargs)
        x, y = _batch(step, 16)
        grads = [_grads_of(model, x[_share(r, world)], y[_share(r, world)]) for r in range(world)]
        for p, *gs in zip(model.parameters(), *grads, strict=True):
            p.grad = sum(gs) / world
        opt.step()
        out.append([p.detach().clone() for p in model.parameters()])
    return out


def _kwargs_hint(got, world, step, i) -> str | None:
    """The hint when parameter ``i`` is what Adam with other keyword arguments gives."""
    given = ADAM_KWARGS[world]
    for kwargs, what in (
        ({}, "Adam's defaults: none of the keyword arguments were passed on"),
        ({"lr": given["lr"]}, "Adam with lr alone: the other keyword arguments were dropped"),
        *(
            (other, f"Adam with {other}, the keyword arguments of another case: values "
             "written in")
            for w, other in ADAM_KWARGS.items()
            if w != world
        ),
    ):  # fmt: skip
        if torch.allclose(got, _zero_reference(world, kwargs=kwargs)[step][i], rtol=0, atol=1e-6):
            return (
                f"parameter {i} after step {step} ({world} ranks) is what {what}. This case "
                f"passes {given}: build optimizer_cls(own_params, **kwargs) with the kwargs "
                "ShardedOptimizer received"
            )
    return None


def _compare_zero(records, world):
    initial = list(_zero_net().parameters())
    ref, fresh = _zero_reference(world), _zero_reference(world, keep_state=False)
    for step in range(STEPS):
        first = records[0]["params"][step]
        for rank, record in enumerate(records[1:], 1):
            for i, (a, b) in enumerate(zip(first, record["params"][step], strict=True)):
                if not torch.equal(a, b):
                    raise CheckFailed(
                        f"after step {step} rank {rank}'s parameter {i} differs from rank 0's "
                        f"({world} ranks): after the sharded step broadcast every parameter "
                        "from the rank that owns it (dist.broadcast(p.data, src=owner)), so "
                        "that all ranks hold the same parameters"
                    )
        for i, (got, want) in enumerate(zip(first, ref[step], strict=True)):
            if torch.allclose(got, want, rtol=0, atol=1e-6):
                continue
            if step == 0 and torch.equal(got, initial[i].detach()):
                raise CheckFailed(
                    f"parameter {i} never changed in step 0 ({world} ranks): some rank must own "
                    "it, step it, and broadcast it from that rank (src=its owner, not rank 0)"
                )
            if torch.allclose(got, fresh[step][i], rtol=0, atol=1e-6):
                raise CheckFailed(
                    f"parameter {i} after step {step} is what a new Adam would give: Adam's "
                    "state (its moments) was lost between steps. Build each rank's optimizer "
                    "once, in __init__, and keep it"
                )
            hint = _kwargs_hint(got, world, step, i)
            if hint is not None:
                raise CheckFailed(hint)
            err = (got - want).abs().max().item()
            raise CheckFailed(
                f"parameter {i} after step {step} ({world} ranks) differs from DDP with Adam by "
                f"{err:.3g} (more than 1e-6): each parameter must be stepped by exactly one "
                "rank, with the averaged gradient, then broadcast from that rank"
            )


def _compare_state(records, world, numels):
    if any(record["optimizers"] == 0 for record in records):
        raise CheckFailed(
            "no optimizer was built from optimizer_cls on some rank: build this rank's "
            "optimizer as optimizer_cls(its_own_params, **kwargs), with the class the checker "
            "passes (it counts the optimizer's state), not torch.optim.Adam by name"
        )
    per_param = 4 * 2  # bytes per element: Adam's exp_avg and exp_avg_sq in float32
    whole = per_param * sum(numels)
    owners: dict[int, list[int]] = {}
    for rank, record in enumerate(records):
        for i in record["state"]:
            owners.setdefault(i, []).append(rank)
    if -1 in owners:
        raise CheckFailed(
            "an optimizer holds state for a tensor that is not one of the model's parameters: "
            "build optimizer_cls over the parameters themselves (not copies)"
        )
    for i, ranks in sorted(owners.items()):
        if len(ranks) > 1:
            every = len(ranks) == world
            raise CheckFailed(
                f"parameter {i}'s optimizer state is on ranks {ranks} ({world} ranks): "
                + ("every rank holds the whole optimizer state, as without sharding. "
                   if every else "")
                + "give each rank's optimizer_cls only the parameters that rank owns"
            )  # fmt: skip
    for rank, record in enumerate(records):
        held = sum(record["state"].values())
        if held != whole // world:
            raise CheckFailed(
                f"rank {rank} holds {held} bytes of optimizer state, of {whole} in all over "
                f"{world} ranks: 1/n is {whole // world}. Balance the shards by bytes (give each "
                "parameter to the rank holding the fewest bytes so far)"
            )


@one_cpu_thread
def check_shard_optimizer(answer, passed: list[str]) -> None:
    """``10.shard_optimizer``: ZeRO-1 against DDP with Adam, on 2 and 4 gloo ranks."""
    if not callable(answer):
        raise CheckFailed(f"the answer must be the class ShardedOptimizer, got {answer!r}")
    numels = [p.numel() for p in _zero_net().parameters()]
    for world in (2, 4):
        records = _ranks.run_ranks(answer, world, job=_zero_job)
        for record in records:
            if "error" in record:
                raise CheckFailed(record["error"])
        _compare_zero(records, world)
        passed.append(
            f"{world} ranks: parameters equal DDP's after each of {STEPS} Adam steps "
            f"(within 1e-6, with {ADAM_KWARGS[world]}), the same on every rank"
        )
        _compare_state(records, world, numels)
        passed.append(
            f"{world} ranks: each parameter's Adam state on one rank only, 1/{world} of the "
            "whole on each"
        )
