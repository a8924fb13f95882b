"""What both of chapter 10's hand-built DDP checkers (:mod:`.ch10_ddp_by_hand`) share: the
steps and batch of a run, the global batch of a step, each rank's share of it, the
gradients of a share, and what an answer's class keeps between instances: a job run after
a first instance (:func:`after_a_first`, in a rank) and the hints of its run
(:func:`first_named`, in the parent).
"""

from __future__ import annotations

import reprlib
import types
from contextlib import contextmanager

import torch
import torch.nn.functional as F

from ._ranks import RuleBroken, learner_reply
from ._util import CheckFailed

__all__ = [
    "values_from_elsewhere",
    "BATCH",
    "SEED",
    "STEPS",
    "after_a_first",
    "after_first",
    "batch",
    "changed_by",
    "first_named",
    "grads_of",
    "share",
]

STEPS, BATCH, SEED = 3, 16, 5


def batch(step, features):
    gen = torch.Generator().manual_seed(200 + step)
    classes = 3 if features == 6 else 16
    return (torch.randn(BATCH, features, generator=gen),
            torch.randint(0, classes, (BATCH,), generator=gen))  # fmt: skip


def share(rank, world):
    return slice(rank * BATCH // world, (rank + 1) * BATCH // world)


def grads_of(model, x, y):
    """The gradients of ``model``'s parameters on ``(x, y)``, None where one has none."""
    loss = F.cross_entropy(model(x), y)
    grads = torch.autograd.grad(loss, list(model.parameters()), allow_unused=True)
    return [None if g is None else g.detach() for g in grads]


_SHOWN = reprlib.Repr()  # keyword arguments only from Python 3.12
_SHOWN.maxlevel, _SHOWN.maxstring = 3, 200
_SHOWN.maxdict = _SHOWN.maxlist = _SHOWN.maxtuple = _SHOWN.maxset = 64


def _shown(value) -> str:
    try:
        return f"{type(value).__name__} {len(value) if hasattr(value, '__len__') else ''} " + (
            _SHOWN.repr(value)
        )
    except Exception:  # noqa: BLE001 (a learner's object whose repr or len raises)
        return f"{type(value).__name__} {id(value)}"


def kept_by_class(answer) -> dict[str, str]:
    """What ``answer`` (a class, or a function that builds one) keeps outside an instance, by
    name, as it reads now (:func:`_kept_places`)."""
    return {name: _shown(value) for name, value in _kept_places(answer).items()}


def _kept_places(answer) -> dict[str, object]:
    """What ``answer`` keeps outside an instance, by name: its class attributes, the default
    arguments of its methods and of the functions of its module (a ``loads={}`` default of a
    helper), and its module's globals, that are no function, class or module."""
    is_class = isinstance(answer, type)
    attributes = vars(answer) if is_class else {}
    functions = [v for v in attributes.values() if isinstance(v, types.FunctionType)]
    if not is_class and isinstance(answer, types.FunctionType):
        functions = [answer]
    init = answer.__init__ if is_class else answer
    module = getattr(init, "__globals__", {})
    functions += [v for v in module.values() if isinstance(v, types.FunctionType)
                  and v.__globals__ is module and v not in functions]  # fmt: skip
    kept: dict[str, object] = {}
    for function in functions:
        defaults, code = function.__defaults__ or (), function.__code__
        named = code.co_varnames[code.co_argcount - len(defaults) : code.co_argcount]
        for name, default in zip(named, defaults, strict=True):
            kept[f"{function.__qualname__}'s default {name}"] = default
        for key, default in (function.__kwdefaults__ or {}).items():
            kept[f"{function.__qualname__}'s default {key}"] = default
    for name, value in attributes.items():
        if name.startswith("__") or callable(value):
            continue
        if not isinstance(value, (staticmethod, classmethod, property)):
            kept[f"{answer.__name__}.{name}"] = value
    for name, value in module.items():
        if not name.startswith("__") and not callable(value):
            if not isinstance(value, types.ModuleType):
                kept[name] = value
    return kept


def _parameters_kept(answer, depth: int = 4) -> dict[str, set[int]]:
    """The ``id()`` of each ``nn.Parameter`` that what :func:`_kept_places` reads holds, and
    a function answer's own attributes, within ``depth`` steps (through dicts, lists, tuples
    and sets only), by name."""
    roots = _kept_places(answer)
    if not isinstance(answer, type):  # a function's attributes (build.cache = {...})
        name = getattr(answer, "__name__", "answer")
        roots |= {f"{name}.{n}": v for n, v in getattr(answer, "__dict__", {}).items()}
    found: dict[str, set[int]] = {}
    for name, root in roots.items():
        todo: list = [(root, 0)]
        seen: set[int] = set()
        while todo and len(seen) < 10_000:
            obj, level = todo.pop()
            if id(obj) in seen or level > depth or isinstance(obj, types.ModuleType | type):
                continue
            seen.add(id(obj))
            if isinstance(obj, torch.nn.Parameter):
                found.setdefault(name, set()).add(id(obj))
            elif isinstance(obj, dict):
                todo += [(v, level + 1) for v in (*obj.keys(), *obj.values())]
            elif isinstance(obj, list | tuple | set | frozenset):
                todo += [(v, level + 1) for v in obj]
    return found


def changed_by(build, answer) -> list[str]:
    """Call ``build()`` (a first instance of ``answer``); the names of what it changed of
    :func:`kept_by_class`."""
    before = kept_by_class(answer)
    build()
    return sorted(n for n, v in kept_by_class(answer).items() if before.get(n) != v)


def after_first(changed, what) -> str:
    """The words added to a hint of a run after a first instance (``what``) whose building
    changed ``changed`` (names of :func:`kept_by_class`); none where it changed nothing."""
    if not changed:
        return ""
    return (
        f". This run built a first {what}, in the same processes, before this one, and "
        f"building it changed {', '.join(changed)}: what a class attribute, a module's "
        "global or a function's default argument keeps, not the instance, carries over to "
        "the next instance. Keep it on self"
    )


def after_a_first(answer, build, what, job) -> dict:
    """In a rank: ``build()`` a first instance of ``answer`` (``what``), then run ``job()``;
    its record, with ``"changed"``: what building the first changed of :func:`kept_by_class`,
    which a hint the job raises also names (:func:`after_first`)."""
    before = _parameters_kept(answer)
    changed = changed_by(build, answer)
    if kept := {n: k for n, k in _parameters_kept(answer).items() if k - before.get(n, set())}:
        name = sorted(kept)[0]
        raise RuleBroken(
            f"building a first {what}, in the same processes, left parameters of its model in "
            f"{name}, which the class, the module or a default argument keeps, not the "
            "instance: every later instance finds them there (a plan of another model's "
            "parameters, or of this one's in another dtype). Keep what an instance needs on "
            "self"
        )
    try:
        record = job()
    except RuleBroken as broken:
        raise RuleBroken(f"{broken}{after_first(changed, what)}") from None
    except Exception as error:  # the learner's own, where the first instance changed something
        kind, said = learner_reply(error)
        if not changed or kind != "error":
            raise
        raise RuleBroken(f"your code raised {said}{after_first(changed, what)}") from None
    return {**record, "changed": changed}


@contextmanager
def first_named(records, what):
    """In the parent: a hint raised on ``records`` (a run of :func:`after_a_first`) also
    names what building the first instance (``what``) changed, on any rank."""
    try:
        yield
    except CheckFailed as wrong:
        changed = sorted({name for record in records for name in record.get("changed", ())})
        raise CheckFailed(wrong.hint + after_first(changed, what)) from None


def values_from_elsewhere(got, wholes) -> bool:
    """Every value of ``got`` is one of the right averages of some parameter: misplaced."""
    pooled = torch.cat([w.reshape(-1) for w in wholes])
    gaps = (got.reshape(-1, 1) - pooled.reshape(1, -1)).abs().amin(dim=1)
    return bool(got.numel()) and bool((gaps <= 1e-7 + 1e-5 * got.reshape(-1).abs()).all())
