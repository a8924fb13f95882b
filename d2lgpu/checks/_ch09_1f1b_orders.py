"""``09.one_f_one_b``'s words on a stage's order: what it ran, against 1F1B's.

:func:`diagnose` names what a stage ran other than 1F1B's order (GPipe's order, a missing
warm-up, one too long or too short, micro-batches out of order, an action run twice or
never); :func:`in_flight_peak` is the most micro-batches an order keeps in flight.

What it is not: the checker; :mod:`.ch09_one_f_one_b` runs the cases and compares orders.
"""

from __future__ import annotations

import inspect
import types

from .. import pipeline
from .._aliases import answer_function
from ..pipeline import gpipe_order, one_f_one_b_order

__all__ = [
    "diagnose",
    "early_backward",
    "forwards_named",
    "helpers_held",
    "in_flight_peak",
    "kept_warm_up",
    "text",
]

# the helpers the prompt rules out (micro_batches it allows)
_ORDER_HELPERS = {"one_f_one_b_order", "gpipe_order", "schedule_ticks", "run_schedule"}


def text(order) -> str:
    """``F0 F1 B0 ...``."""
    return " ".join(f"{a}{i}" for a, i in order)


def diagnose(k, got, n_stages, m) -> str:
    """Stage ``k``'s order ``got``, of ``n_stages`` stages and ``m`` micro-batches, named
    against 1F1B's."""
    expected = one_f_one_b_order(n_stages, m)[k]
    lead = f"stage {k + 1} of {n_stages} (k = {k}) with {m} micro-batches ran {text(got)}"
    want = f"1F1B's order is {text(expected)}"
    if got == gpipe_order(n_stages, m)[k] and got != expected:
        return (
            f"{lead}: every forward before any backward, GPipe's order, which keeps all {m} "
            f"micro-batches' activations on the stage. {want}"
        )
    if sorted(got) != sorted(expected):
        return f"{lead}: {_not_once(k, got, expected, n_stages)} {want}"
    first = next(j for j, (a, _) in enumerate(got) if a == "B")  # there are m >= 1 of them
    want_first = min(n_stages - k, m)  # the warm-up's min(S - k - 1, M), then one more
    if first != want_first:
        more = (
            " (no warm-up: the stages take turns instead of working at once)" if first == 1 else ""
        )
        return (
            f"{lead}: {first} forwards before its first backward; 1F1B runs min(S - k, M) = "
            f"{want_first}, its min(S - k - 1, M) warm-up forwards and one more{more}. {want}"
        )
    if [i for a, i in got if a == "F"] != list(range(m)):
        return (
            f"{lead}: forwards in the order of the micro-batches, 0 first (the micro-batches "
            f"as torch.tensor_split gives them, not reversed or shuffled). {want}"
        )
    if [i for a, i in got if a == "B"] != list(range(m)):
        return f"{lead}: backwards in the order of the micro-batches, 0 first. {want}"
    return f"{lead}: after the warm-up, one forward then one backward, in turn. {want}"


def _not_once(k, got, expected, n_stages) -> str:
    """What a stage ran other than each micro-batch's forward and backward once."""
    left = [a for a in expected if a not in got]
    missing = text(left)
    if left and left == expected[len(expected) - len(left) :] and left[0][0] == "B":
        missing += " (the cool-down: the backwards still owed after the last forward)"
    twice = text(sorted({a for a in got if got.count(a) > 1}, key=got.index))
    said = [f"it never ran {missing}"] if missing else []
    said += [f"it ran {twice} more than once"] if twice else []
    why = (
        " A stage's backward takes the gradient of the next stage's input: cut with detach() "
        "alone, that input's .grad stays None, and nothing is sent back; cut it with "
        "h.detach().requires_grad_()"
        if k < n_stages - 1 and not any(a == "B" for a, _ in got)
        else ""
    )
    done = "; ".join(said) or "it ran other actions"
    return f"{done}: each micro-batch's forward and backward once, on every stage.{why}"


def forwards_named(forwards: list[int], m: int, rows: int, n_micro: int) -> str:
    """What made the stages run ``forwards`` forwards (one count a stage) where each should
    run ``m``: ``rows`` rows cut into ``n_micro`` micro-batches. Empty where nothing fits."""
    chunks = -(-rows // -(-rows // n_micro)) if rows else 0  # how many pieces x.chunk gives
    if all(f == n_micro > m for f in forwards):
        return f": {n_micro - m} of the {n_micro} micro-batches asked for are empty ({rows} rows)"
    if all(f == 2 * m for f in forwards):
        return (
            ": every micro-batch went through each stage twice. A second forward (for the "
            "loss, or to build the graph again for backward) doubles the compute; keep each "
            "micro-batch's output from its one forward until its backward"
        )
    if all(f == chunks != m for f in forwards):
        return f": {chunks} is what x.chunk({n_micro}) gives for {rows} rows"
    if all(f == -(-rows // n_micro) != m for f in forwards):
        return (
            f": x.split({n_micro}) cuts pieces of {n_micro} rows, {forwards[0]} of them here; "
            "split takes a piece's size, tensor_split the number of pieces"
        )
    if m > 1 and all(f == 1 for f in forwards):
        return (
            ": the whole batch went through each stage in one forward, not cut into micro-batches"
        )
    k = next(k for k, f in enumerate(forwards) if f != m)
    if forwards[k] > m:
        return (
            f": stage {k + 1} ran {forwards[k] - m} forward(s) more than there are "
            "micro-batches: a forward of the whole batch besides the micro-batches' (for the "
            "loss, or a log?), or a micro-batch run again"
        )
    return f": {m - forwards[k]} micro-batch(es) never went through stage {k + 1}"


def in_flight_peak(order) -> int:
    """The most micro-batches ``order`` holds in flight (forwards not yet backwarded)."""
    live = peak = 0
    for action, _ in order:
        live += 1 if action == "F" else -1
        peak = max(peak, live)
    return peak


def helpers_held(step) -> str | None:
    """The hint for an answer whose module holds ``d2lgpu.pipeline``'s order helpers, or a
    second copy of that module: orders taken before the step (a table made at import) or
    from a copy that the watch on the helpers never sees. A notebook's namespace
    (``__main__``) and a test module may hold them for a comparison: there only copies count."""
    names = getattr(answer_function(step), "__globals__", {})
    ours = inspect.getfile(pipeline)
    for key, value in list(names.items()):
        copy = isinstance(value, types.ModuleType) and value is not pipeline
        copy = copy and getattr(value, "__file__", None) == ours
        filename = getattr(getattr(value, "__code__", None), "co_filename", None)
        helper = getattr(value, "__name__", "") in _ORDER_HELPERS and filename == ours
        helper = helper and not str(names.get("__name__")).startswith(("__main__", "test_"))
        if copy or helper:
            what = f"a second copy of d2lgpu.pipeline ({key})" if copy else f"its {key}"
            return (
                f"your step's module holds {what}: the orders come from d2lgpu.pipeline's "
                "helpers, taken where the watch on them during the step cannot see (at import, "
                "or from another copy of the file). The exercise asks for the orders written "
                "yourself: min(S - k - 1, M) forwards, then one forward and one backward in "
                "turn, then the last backwards"
            )
    return None


def early_backward(log, n_stages: int, m: int, where: str) -> str | None:
    """The words for the first stage whose backward of a micro-batch ran before the next
    stage's backward of it (``log``: ``(stage, "F" or "B", micro-batch)`` in the order run):
    the gradient of the next stage's input, which it needs, did not exist yet."""
    at = {entry: n for n, entry in enumerate(log)}
    for k in range(n_stages - 1):
        for i in range(m):
            mine, theirs = at.get((k, "B", i)), at.get((k + 1, "B", i))
            if mine is not None and theirs is not None and mine < theirs:
                return (
                    f"({where}) stage {k + 1}'s backward of micro-batch {i} ran before stage "
                    f"{k + 2}'s: the gradient it needs, of stage {k + 2}'s input, did not "
                    "exist yet, so it ran on something else (zeros, or an earlier .grad). In "
                    "one process the stages' orders interleave: run a stage's backward of "
                    "micro-batch i only once the next stage's backward of i has filled that "
                    "gradient"
                )
    return None


def kept_warm_up(k, got, n_stages, m, earlier: list[int]) -> str | None:
    """Words for stage ``k``'s order ``got`` where it is 1F1B's with the warm-up of an earlier
    call of as many stages (of ``earlier``'s micro-batch counts) kept, capped at ``m``."""
    for m0 in earlier:
        warm = min(n_stages - k - 1, m0, m)
        # the first stage of warm + 1 has that warm-up: min(warm, m), warm being at most m
        if warm != min(n_stages - k - 1, m) and got == one_f_one_b_order(warm + 1, m)[0]:
            return (
                f". That is 1F1B's order with the warm-up of an earlier call of {n_stages} "
                f"stages and {m0} micro-batches, {warm} forwards: does your step keep warm-ups "
                "or orders from an earlier call (a cache keyed by the number of stages)? Work "
                "them out in every call, from this call's S and M"
            )
    return None
