"""``10.shard_optimizer`` (ZeRO-1) for :mod:`.ch10_ddp_by_hand`: the models the cases run
(:class:`Net`), what each rank runs (the learner's ``ShardedOptimizer`` over Adam, gradients
averaged as DDP does) and DDP with Adam in one process. The comparison of the two is in
:mod:`._ch10_zero_compare`, the other rules on the ranks' records in :mod:`._ch10_zero_rules`,
and on what they keep in :mod:`._ch10_zero_kept`."""

from __future__ import annotations

from functools import partial
from typing import NamedTuple

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch import nn

from . import _ranks
from ._ch10_by_hand import SEED, STEPS, after_a_first, batch, grads_of, share
from ._ch10_refused import empty_share_hint, refused_in_step, zero_redundancy_used
from ._ch10_zero_kept import KeptScan
from ._kit import patched, tensors_alive
from ._kit_seeds import reseeds_named
from ._ranks import RuleBroken

__all__ = [
    "ADAM_KWARGS",
    "FIRST",
    "MOMENTS",
    "PLAIN",
    "UNEVEN",
    "Net",
    "ZeroJob",
    "param_bytes",
    "zero_reference",
    "zero_job",
    "zero_net",
]

ADAM_LR = 0.01
MOMENTS = ("exp_avg", "exp_avg_sq")  # the state Adam keeps per parameter
# the keyword arguments ShardedOptimizer passes on to optimizer_cls, per world size: not the
# same twice, each with one at least off Adam's defaults, so that values written in are seen;
# on 3 ranks no lr, so that a learning rate of the answer's own is seen too
ADAM_KWARGS: dict[int, dict] = {
    2: {"lr": ADAM_LR, "betas": (0.85, 0.99)},
    4: {"lr": 2 * ADAM_LR, "weight_decay": 0.01},
    3: {"eps": 1e-6, "betas": (0.8, 0.95)},
}


class Net(NamedTuple):
    """The model of a case: 8 ``Linear(16, 16)`` layers in ``dtype``; without biases where
    ``order`` is empty, else with biases, weights (W) and biases (b) registered in ``order``,
    and layer ``late``'s bias left out of the first step's forward (-1: none)."""

    order: str = ""
    dtype: torch.dtype = torch.float32
    late: int = -1

    @property
    def late_param(self) -> int:
        """The index of the parameter with no gradient at the first step (-1: none)."""
        return zero_net(self).layers[self.late][1] if self.late >= 0 else -1

    def numels(self) -> list[int]:
        return [p.numel() for p in zero_net(self).parameters()]

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    @property
    def name(self) -> str:
        return str(self.dtype).removeprefix("torch.")


# 8 parameters of the same size: an even split over 2 or 4 ranks exists, and over 3 ranks
# shares of 3, 3 and 2 (shares of 8 // 3 leave 2 parameters without an owner)
PLAIN = Net()
# weights of 256 elements (W) and biases of 16 (b), registered in this order: owners given by
# index (i % world) hold 2 weights on one rank and 6 on the other, and so do consecutive
# chunks of parameters (a count, not the bytes); float64, which a flat buffer in the default
# dtype (float32) rounds; and layer 2's bias (parameter 8) without a gradient at the first
# step, which Adam skips there: an optimizer built then over the parameters with a gradient,
# or zeros given where there is none, step it otherwise
UNEVEN_ORDER = "WWWWbWbWbWbWbbbb"
UNEVEN = Net(order=UNEVEN_ORDER, dtype=torch.float64, late=2)


class _Registered(nn.Module):
    """``linears`` in turn (ReLU between), their weights (W) and biases (b) registered in the
    order of ``order``, each kind in the layers' order."""

    def __init__(self, linears, order: str):
        super().__init__()
        weights, biases = iter(m.weight for m in linears), iter(m.bias for m in linears)
        self.params = nn.ParameterList([next(weights if c == "W" else biases) for c in order])
        kinds = ([i for i, c in enumerate(order) if c == kind] for kind in "Wb")
        self.layers = list(zip(*kinds, strict=True))  # each layer's (weight, bias) indexes
        self.late = -1  # the layer whose bias this forward leaves out (-1: none)

    def forward(self, x):
        for k, (w, b) in enumerate(self.layers):
            x = F.linear(x, self.params[w], None if k == self.late else self.params[b])
            x = F.relu(x) if k < len(self.layers) - 1 else x
        return x


def zero_net(net: Net = PLAIN):
    """``net``'s model, the same each time (its parameters drawn from ``SEED``)."""
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(SEED)
        if net.order:
            linears = [nn.Linear(16, 16).to(net.dtype) for _ in range(8)]
            return _Registered(linears, net.order)
        layers = []
        for i in range(8):
            layers += [nn.Linear(16, 16, bias=False)] + ([nn.ReLU()] if i < 7 else [])
        return nn.Sequential(*layers).to(net.dtype)


def _laid_out_by_rank(model, rank):
    """``model`` with its parameters made again, object and storage, in an order rotated by
    ``rank``: each rank holds them at other addresses, in another order of addresses, as
    separate machines would. (Ranks forked alike lay them out alike, and then an order by
    ``id()`` or ``data_ptr()``, or a set's, agrees on every rank by chance.)"""
    named = list(model.named_parameters())
    k = rank % len(named)
    for name, p in named[k:] + named[:k]:
        owner, _, attr = name.rpartition(".")
        setattr(model.get_submodule(owner), attr, nn.Parameter(p.detach().clone()))
    return model


_OPTIMIZERS: list = []  # in a rank: every optimizer the learner built
_HELD: list = []  # in a rank: after each inner step, the state bytes per parameter index
_STEPPED: list = []  # in a rank: after each inner step, where the watch's calls stood


class _RecordedAdam(torch.optim.Adam):
    """Adam that the checker can find: each one built joins ``_OPTIMIZERS``; each step
    records, in ``_HELD``, the state that the optimizers hold right after it."""

    params_of: list = []  # the model's parameters, in the rank that runs

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _OPTIMIZERS.append(self)  # the settings it was given, by name, or by place after params
        self.given = sorted(set(kwargs) - {"params"}) + [f"#{i}" for i in range(
            1 - ("params" in kwargs), len(args))]  # fmt: skip

    def step(self, *args, **kwargs):
        out = super().step(*args, **kwargs)
        _HELD.append(_state_bytes(_RecordedAdam.params_of))
        _STEPPED.append(_ranks.watch().mark())
        return out


def _held_params(params) -> list[int]:
    """The indexes of the parameters that this rank's optimizers were given."""
    index = {id(p): i for i, p in enumerate(params)}
    return sorted({index.get(id(p), -1) for opt in _OPTIMIZERS for g in opt.param_groups
                   for p in g["params"]})  # fmt: skip


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


def _ours(params, x, y, agree) -> list:
    """The job's own tensors, and its optimizers' state: not what the answer keeps."""
    return [*params, *(p.grad for p in params if p.grad is not None), x, y, *sum(agree, []),
            *(t for o in _OPTIMIZERS for st in o.state.values() for t in st.values())]  # fmt: skip


class ZeroJob:
    """What each rank runs on the model of ``net``, after a first instance over 3 other
    parameters where ``first``; picklable by reference for the ranks."""

    def __init__(self, net: Net = PLAIN, first: bool = False):
        self.net, self.first = net, first

    def __call__(self, answer, rank, world):
        job = partial(_zero_job, answer, rank, world, self.net)

        if not self.first:
            return job()
        # 2 parameters owned by one rank, 1 by the other: loads kept by the class (not the
        # instance) leave the next one unbalanced
        first = [nn.Parameter(torch.zeros(32, 32, dtype=self.net.dtype)) for _ in range(3)]
        build = lambda: answer(first, torch.optim.Adam, **ADAM_KWARGS[world])  # noqa: E731
        return after_a_first(answer, build, FIRST, job)


FIRST = "ShardedOptimizer (over 3 other parameters: 2 owned by one rank, 1 by the other)"


def _zero_job(answer, rank, world, net):
    del _OPTIMIZERS[:], _HELD[:], _STEPPED[:]
    model = _laid_out_by_rank(zero_net(net), rank)
    params = list(model.parameters())
    _RecordedAdam.params_of = params
    scan = KeptScan(tensors_alive(), params[0].numel())
    from torch.distributed.optim import ZeroRedundancyOptimizer

    reseeds = partial(reseeds_named, "your ShardedOptimizer", RuleBroken)
    with patched((ZeroRedundancyOptimizer, "__init__", zero_redundancy_used)), reseeds():
        try:
            given = model.parameters()  # a generator, as a caller's optimizer is given
            opt = answer(given, _RecordedAdam, **ADAM_KWARGS[world])
        except ValueError as error:
            if "empty parameter list" not in str(error):
                raise
            raise RuleBroken(empty_share_hint(rank, world, error, len(params))) from None
    if any(value is given for value in getattr(opt, "__dict__", {}).values()):
        raise RuleBroken(
            "your ShardedOptimizer keeps params as it was given, a generator "
            "(model.parameters()): the first loop over it uses it up, and every later one (in "
            "step() and zero_grad()) finds no parameters. Make a list of it first: "
            "params = list(params)"
        )
    setup = {"type": type(opt).__name__,
             "missing": [m for m in ("step", "zero_grad") if not callable(getattr(opt, m, None))]}  # fmt: skip
    if setup["missing"]:
        return {"setup": setup}
    agree, held, sent, step_calls, left, made_groups = [], [], [], [], [], []
    for step in range(STEPS):
        x, y = batch(step, 16)
        x = x.to(net.dtype)
        opt.zero_grad()
        left.append([i for i, p in enumerate(params) if p.grad is not None and p.grad.any()])
        _late(model, net, step)
        F.cross_entropy(model(x[share(rank, world)]), y[share(rank, world)]).backward()
        _average_grads(model, world)
        mark, stepped, groups = _ranks.watch().mark(), len(_STEPPED), _ranks.watch().groups_made
        with patched(*refused_in_step()), reseeds():
            opt.step()
        made_groups.append(_ranks.watch().groups_made - groups)
        _ranks.check_waited(mark, "step() returned")
        calls = _ranks.watch().calls[mark:]
        after = _STEPPED[-1] if len(_STEPPED) > stepped else mark  # sent after the inner step
        sent.append(
            (sum(c.nbytes for c in calls), sum(c.nbytes for c in _ranks.watch().calls[after:]))
        )
        held.append(_held_params(params))
        step_calls.append(calls)
        agree.append([p.detach().clone() for p in params])
        if step == STEPS - 2:  # a look at what the job made: one here, one after
            scan.look(_ours(params, x, y, agree))
    kept, then, forms = scan.record(_ours(params, x, y, agree), opt)
    # the settings each optimizer steps with, its parameter groups' (a dict's own lr, say)
    built = [dict(g, params=None, given=o.given) for o in _OPTIMIZERS for g in o.param_groups]
    before_last = range(STEPS - 1)  # nothing recorded: the looks are after the last two steps
    return {"setup": setup, "left": left, "kept": [*([] for _ in before_last), kept],
            "kept_then": [*([] for _ in before_last), then],
            "kept_forms": [*([] for _ in before_last), forms],
            "params": agree, "state": _state_bytes(params), "optimizers": len(_OPTIMIZERS),
            "held": held, "peak": list(_HELD), "sent": sent, "calls": step_calls,
            "groups": made_groups, "built": built}  # fmt: skip


zero_job = ZeroJob()


def zero_reference(world, keep_state=True, kwargs=None, history=None, net: Net = PLAIN,
                   none_as_zeros=False):  # fmt: skip
    """DDP with Adam, in one process, on ``net``'s model: per-rank gradients averaged, then
    the step, which skips a parameter without a gradient (given zeros there where
    ``none_as_zeros``); each step appends each parameter's ``(before, gradient, exp_avg,
    exp_avg_sq)`` to ``history``."""
    kwargs = ADAM_KWARGS[world] if kwargs is None else kwargs
    model = zero_net(net)
    opt = torch.optim.Adam(model.parameters(), **kwargs)
    out = []
    for step in range(STEPS):
        if not keep_state:
            opt = torch.optim.Adam(model.parameters(), **kwargs)
        x, y = batch(step, 16)
        x = x.to(net.dtype)
        _late(model, net, step)
        grads = [grads_of(model, x[share(r, world)], y[share(r, world)]) for r in range(world)]
        for p, *gs in zip(model.parameters(), *grads, strict=True):
            none = gs[0] is None
            p.grad = (torch.zeros_like(p) if none_as_zeros else None) if none else sum(gs) / world
        before = [p.detach().clone() for p in model.parameters()]
        opt.step()
        out.append([p.detach().clone() for p in model.parameters()])
        if history is not None:
            history.append([(b, p.grad.clone(), *(opt.state[p][k].clone() for k in MOMENTS))
                            for b, p in zip(before, model.parameters(), strict=True)])  # fmt: skip
    return out


def _late(model, net: Net, step: int) -> None:
    """Leave layer ``net.late``'s bias out of ``model``'s forward at the first step only."""
    model.late = net.late if step == 0 else -1  # (a Sequential's own attribute, unread)


def param_bytes(net: Net = PLAIN) -> int:
    return sum(p.nbytes for p in zero_net(net).parameters())
