"""The checker kit's watch on torch's global random generators (:func:`reseeds_named`): a
part that the caller's own loop calls (a step, a hook, an optimizer) must leave them as the
caller had them.

What it leaves reseeded, the caller's own draws (its data order, dropout masks,
initialisations) restart from at every call. A part may seed a ``torch.Generator`` of its
own, or reseed inside ``torch.random.fork_rng()``, which puts the state back. Run with
``answers_only`` (as :func:`._kit_process.defaults_kept` runs it around every check), the
watch names the answer's own lines that draw from a global generator too (``torch.randn``
without ``generator=``), as the prompts ask; draws that torch makes for it (a dropout layer
of the checker's model) are not the answer's lines, and without ``answers_only`` no draw is
judged. Python's and numpy's global generators are watched for reseeds too
(``random.seed``, ``numpy.random.seed``) that leave them other than the block found them.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

import torch
from torch.utils._python_dispatch import _disable_current_modes

from ._kit import patched
from ._util import CheckFailed, in_learner_code, is_course_code

__all__ = ["answers", "reseeds_named"]

# the reseeds, the setters of a state and its getters, as torch, torch.random and torch.cuda
# spell them
_SEEDS = ("manual_seed", "seed", "manual_seed_all", "seed_all")
_SETS = ("set_rng_state", "set_rng_state_all")
_GETS = ("get_rng_state", "get_rng_state_all")


def _same(a, b) -> bool:
    if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
        return a.shape == b.shape and torch.equal(a, b)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(map(_same, a, b))
    return False


def _label(owner, name: str) -> str:
    """``torch.cuda.seed_all``, or ``torch.manual_seed`` however reached (``torch.random``'s,
    or the learner's own name for it, which the kit binds to either owner's replacement)."""
    return f"torch.cuda.{name}" if owner is torch.cuda else f"torch.{name}"


def answers(filename: str) -> bool:
    """Whether code in ``filename`` is the answer's: the learner's, not a test file's (whose
    functions replace torch's, or write os.environ, in a test before its check runs)."""
    return in_learner_code(filename) and not Path(filename).name.startswith(("test_", "conftest"))


def _in_answer() -> bool:
    """Whether the call under way comes from the answer's code: the first frame out from it
    that is neither a library's (torch's own, say) nor a watch's of this module (nested
    watches call one another) is the learner's, not the course's (the checker's, which
    calls the answer from a learner's cell) nor a test file's."""
    frame: FrameType | None = sys._getframe()
    while frame is not None:
        name = frame.f_code.co_filename
        if name != __file__ and (in_learner_code(name) or is_course_code(name)):
            return answers(name)
        frame = frame.f_back
    return False


def _noted(events: list, read: list, mark, name: str, original, *args, **kwargs):
    """Call ``original``, noting in ``events`` a reseed (``"seed"``, with its words), and in
    ``read`` each state read, with the events noted before it. A state set back (one read
    from the generator in this block) undoes what was noted after its read: ``events``
    becomes what it was then. A state from elsewhere is a reseed. With ``mark`` (the
    block's :class:`_Mark`), only calls made inside the answer's are noted: the checker's
    own reseeds between them keep the mark where the answer had not taken it away."""
    if mark is not None and not _in_answer():
        held = mark.kept()
        out = original(*args, **kwargs)
        if held:
            mark.put()
        return out
    if name.endswith(_SETS):
        state = args[0] if args else kwargs.get("new_state", kwargs.get("new_states"))
        with _disable_current_modes():  # real states, compared as such under FakeTensorMode
            restored = [before for r, before in read if _same(state, r)]
        if restored:
            events[:] = restored[0]
        else:
            events.append(("seed", f"{name}() with a state it had not read from that generator"))
    elif not name.endswith(_GETS):
        events.append(("seed", f"{name}()"))
    out = original(*args, **kwargs)
    if name.endswith(_GETS):
        read.append((out, list(events)))
    return out


def _reported(seed: int) -> None:
    """Make the global generator report ``seed`` as its seed, its draws going on as they were
    (a state's first 8 bytes are the seed it reports), out of sight of the watches' modes,
    of a dispatch mode the caller runs (``FakeTensorMode``, whose ``checkpoint`` reads the
    state) and of the replacements of ``torch.get_rng_state`` and ``torch.set_rng_state``."""
    with torch._C.DisableTorchFunction(), _disable_current_modes():
        state = torch.default_generator.get_state()
        state[:8] = torch.frombuffer(bytearray(seed.to_bytes(8, sys.byteorder)), dtype=torch.uint8)
        torch.default_generator.set_state(state)


def _mixed(seed: int, depth: int) -> int:
    """The mark of a watch at ``depth`` over a generator that reported ``seed``: splitmix64's
    mix of the two, so that no seed code writes (0, 1, a rank, 42) is the mark of a watch
    at any depth, nor are two nested watches' marks a small seed apart."""
    z = (seed + _MARK * (depth + 1)) & _U64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _U64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _U64
    return z ^ (z >> 31)


class _Mark:
    """A seed for the global generator to report while a watch runs (``seed``: the one it
    reported before); nested watches each have their own."""

    def __init__(self, seed: int) -> None:
        self.seed, self.mark = seed, _mixed(seed, len(_MARKS))

    def kept(self) -> bool:
        return torch.initial_seed() == self.mark

    def put(self) -> None:
        _reported(self.mark)


@contextmanager
def _marked() -> Iterator[_Mark]:
    """Give the global generator a seed of its own to report for the block, and yield it;
    put the caller's seed back where it still reports it. A reseed to any seed, the caller's
    own included, takes the mark away."""
    mark = _Mark(torch.initial_seed())
    _MARKS.append(mark)
    mark.put()
    try:
        yield mark
    finally:
        _MARKS.remove(mark)
        if mark.kept():
            _reported(mark.seed)


# torch's functions and tensor methods that draw, from the global generator unless given one
_DRAWS = [
    *((torch, name) for name in ("rand", "randn", "randint", "randperm", "normal", "bernoulli")),
    *((torch, name) for name in ("rand_like", "randn_like", "randint_like", "multinomial")),
    *((torch.Tensor, f"{name}_") for name in ("normal", "uniform", "random", "bernoulli")),
    *((torch.Tensor, f"{name}_") for name in ("exponential", "geometric", "cauchy")),
]


def _drawn(events: list, owner, name: str):
    """``owner.name``, noting in ``events`` each call of the answer's own lines that draws
    from a global generator (no ``generator=``, or torch's default one)."""
    original = getattr(owner, name)
    words = f"{'torch' if owner is torch else 'Tensor'}.{name}()"

    def draw(*args, **kwargs):
        given, caller = kwargs.get("generator"), sys._getframe(1).f_code.co_filename
        if given in (None, torch.default_generator) and answers(caller):
            how = "with generator=torch.default_generator" if given else "without generator="
            events.append(("draw", f"{words} {how}"))
        return original(*args, **kwargs)

    return functools.wraps(original)(draw)


# Python's and numpy's global generators: (module, its name, how its state is set, and a
# generator of one's own to offer instead)
_OTHERS = (("random", "Python's", "setstate", "rng = random.Random(0); rng.shuffle(order)"),
           ("numpy.random", "numpy's", "set_state", "rng = np.random.default_rng(0)"))  # fmt: skip


def _others_watched(events: list, mark) -> list:
    """Replacements of ``random.seed`` and ``numpy.random.seed`` (where numpy is loaded) that
    note each call in the block (inside the answer's, with ``mark``) in ``events`` as
    ``(words, whose, module)``, and of their generators' state setters, which take those of
    their module off again: a state set back after a reseed puts the generator back."""
    changes = []
    for module, whose, sets, _ in _OTHERS:
        owner = sys.modules.get(module)
        if owner is not None:
            seed, set_back = _watched_pair(events, mark, (f"{module}.seed()", whose, module))
            changes += [
                (owner, "seed", seed(owner.seed)),
                (owner, sets, set_back(getattr(owner, sets))),
            ]
    return changes


def _watched_pair(events: list, mark, noted: tuple):
    """Wrappers of a module's ``seed`` (noting ``noted``) and of its state setter (taking
    what was noted of that module off)."""

    def watched(note: bool):
        def wrap(original):
            def call(*args, **kwargs):
                if mark is None or _in_answer():
                    events[:] = [*events, noted] if note else [e for e in events if e != noted]
                return original(*args, **kwargs)

            return functools.wraps(original)(call)

        return wrap

    return watched(True), watched(False)


_MARK = 0x9E37_79B9_7F4A_7C15  # splitmix64's step: each depth's marks a stream of their own
_U64 = (1 << 64) - 1
_MARKS: list[_Mark] = []  # the watches running, innermost last


@contextmanager
def reseeds_named(
    who: str, error: type[Exception] = CheckFailed, answers_only: bool = False
) -> Iterator[None]:
    """Raise ``error`` naming ``who`` where the block reseeded one of torch's global
    generators (``torch.manual_seed``, ``torch.seed``, ``torch.cuda.manual_seed_all``, a state
    of another generator set, ``torch.default_generator.manual_seed``) and set no state it
    had read back after it (as ``torch.random.fork_rng()`` does on leaving). With
    ``answers_only``, only what runs inside calls of the answer's code counts (the block is
    a checker's, which seeds for its cases), and the answer's own lines that draw from a
    global generator (``torch.randn`` without ``generator=``) are named too, unless a state
    read before them is set back after them. An error of the block's own goes on as it was."""
    events: list = []
    read: list = []
    with _marked() as marker:
        note = functools.partial(_noted, events, read, marker if answers_only else None)
        changes = [
            (owner, name, functools.partial(note, _label(owner, name), f))
            for owner in (torch, torch.random, torch.cuda)
            for name in (*_SEEDS, *_SETS, *_GETS)
            if callable(f := getattr(owner, name, None))
        ]
        draws = [(o, name, _drawn(events, o, name)) for o, name in _DRAWS if answers_only]
        reseeded: list = []  # Python's and numpy's
        others = _others_watched(reseeded, marker if answers_only else None)
        with patched(*changes, *draws, *others):
            yield
        kept = marker.kept()
    left = [words for kind, words in events if kind == "seed"]
    if not left and not kept:  # through the generator's own methods
        left = ["torch.default_generator.manual_seed()"]
    drew = [words for kind, words in events if kind == "draw"]
    if reseeded and not left:
        words, whose, _ = reseeded[0]
        offer = next(o for _, w, _, o in _OTHERS if w == whose)
        raise error(
            f"{who} called {words} and left {whose} global random generator reseeded: the "
            "caller's own draws from it (its data order, say) would restart from that seed "
            "at every call, and every other module that draws from it too. Leave it as the "
            f"caller had it: draw from a generator of your own ({offer}), or put its state "
            "back (getstate() before, setstate() after)"
        )
    if drew and not left:
        raise error(
            f"{who} drew random numbers from torch's global random generator ({drew[0]}): "
            "the caller's own draws share it (its data order, dropout "
            "masks, initialisations), so every call moves them on. Draw from a "
            "torch.Generator of your own (g = torch.Generator().manual_seed(0); "
            "torch.randn(..., generator=g)), or inside torch.random.fork_rng(), which puts "
            "the state back"
        )
    if left:
        raise error(
            f"{who} called {left[0]} and left torch's global random generator reseeded: "
            "the caller's own draws share it (its data order, dropout masks, initialisations), "
            "so they would restart from that seed at every call. Leave the global generator "
            "as the caller had it; random numbers of your own come from a torch.Generator you "
            "seed (torch.Generator().manual_seed(0)), or from inside "
            "torch.random.fork_rng(), which puts the state back"
        )
