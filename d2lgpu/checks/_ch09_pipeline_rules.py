"""``09.pipeline``'s rules on what the step did, beside its values: the micro-batches and the
schedule (from the stages' log), stage 1's input, and the host reads (from the device watch).

* :func:`check_nonempty` and :func:`check_schedule`: ``min(M, n)`` non-empty micro-batches,
  each through each stage once, stage 2 starting before stage 1 has run the last one, and
  every forward before any backward (GPipe's schedule);
* :func:`check_split`: stage 1's micro-batches each a run of consecutive rows of ``x``, in
  order (``tensor_split``'s pieces), not rows gathered or shuffled (``x[perm]``);
* :func:`check_input_grad`: stage 1's input (a micro-batch of ``x``) left without
  ``requires_grad``, or backward computes a gradient of the data that nobody reads;
* :func:`cast_refused`: a tensor in another dtype than the stages' named (a cast, a default);
* :func:`check_raced`: no operation on the CPU uses a copy to the host still landing;
* :func:`check_reads`: at most one host read of a device value per step, with the copies
  that ``torch.autograd.graph.save_on_cpu()`` makes of every saved tensor named as such;
* :func:`swapped_loss_hint`: ``loss_fn(target, out)`` named, here and in ``09.one_f_one_b``.

What it is not: the checker; :mod:`d2lgpu.checks.ch09_model_parallel` runs the cases.
"""

from __future__ import annotations

import torch

from ._pretend import SAVED_TO_HOST
from ._util import CheckFailed

__all__ = [
    "GATHERED", "cast_refused", "check_nonempty", "check_raced", "check_schedule", "check_split",
    "check_input_grad", "check_reads", "gathered", "swapped_loss_hint",
]  # fmt: skip


def check_nonempty(log, where) -> None:
    if any(rows == 0 for _, rows, _ in log):
        raise CheckFailed(
            f"for {where}, a stage got an empty micro-batch (torch.tensor_split(x, M) gives empty "
            "ones when len(x) < M): split into min(M, len(x)) micro-batches"
        )


def _calls_named(calls, n, m) -> str:
    """What cut stage 1's ``calls`` (rows per forward) from ``n`` rows asked in ``m`` parts."""
    if n in calls and len(calls) > 1:
        return (
            f". Besides the micro-batches, the whole batch of {n} rows went through the stages: "
            "a forward for the loss runs every stage again; the loss is the micro-batches' "
            "losses, each weighted by its share of the rows, summed"
        )
    if sum(calls) == 2 * n:
        return ": every row went through stage 1 twice, a forward run again"
    if sum(calls) == n and calls == [len(c) for c in torch.arange(n).split(m)]:
        return (
            f": x.split({m}) cuts pieces of {m} rows; split takes a piece's size, "
            "tensor_split the number of pieces"
        )
    return ""


def check_schedule(log, n, m, where) -> None:
    want = min(m, n)
    forwards = [
        (i, stage, rows) for i, (stage, rows, phase) in enumerate(log) if phase == "forward"
    ]
    calls1 = [rows for _, stage, rows in forwards if stage == 1]
    calls2 = [rows for _, stage, rows in forwards if stage == 2]
    if len(calls1) == 1 and want > 1:
        raise CheckFailed(
            f"for {where}, the whole batch went through stage 1 in one call: split it into "
            f"{want} micro-batches, so that stage 2 can start while stage 1 works on the next"
        )
    if len(calls1) != want or sum(calls1) != n or calls1 != calls2:
        raise CheckFailed(
            f"for {where}, stage 1 got micro-batches of {calls1} rows and stage 2 of {calls2}: "
            f"each stage must see the same {want} non-empty micro-batches once (torch.chunk "
            f"may give fewer; torch.tensor_split into min(M, len(x)) parts gives exactly {want})"
            + _calls_named(calls1, n, m)
        )
    if want == 1:
        return
    first2 = min(i for i, stage, _ in forwards if stage == 2)
    if first2 > max(i for i, stage, _ in forwards if stage == 1):
        raise CheckFailed(
            f"for {where}, stage 2 started only after stage 1 had run every micro-batch: run "
            "micro-batch i through stage 2 as soon as stage 1 has it, so that the stages work "
            "at the same time"
        )
    first_backward = min((i for i, e in enumerate(log) if e[2] == "backward"), default=len(log))
    if first_backward < forwards[-1][0]:
        raise CheckFailed(
            f"for {where}, backward ran before the last micro-batch's forward: each device runs "
            "its work in order, so stage 1's next forward waits for stage 2's backward to come "
            "back and the stages take turns. Run every micro-batch's forward first, then the "
            "backward (of the weighted sum, or of each loss): GPipe's schedule"
        )


def check_input_grad(stages, where) -> None:
    if stages[0].input_grad:
        raise CheckFailed(
            f"for {where}, stage 1's input, a micro-batch of x, required grad (requires_grad_()): "
            "backward then also computes the gradient of every micro-batch of x, one more "
            "product per micro-batch in stage 1's first layer, kept in its .grad, that nothing "
            "reads. Send the micro-batches to stage 1 as they are: to() between the devices is "
            "followed by autograd without it"
        )


def cast_refused(error: RuntimeError, where) -> CheckFailed:
    """torch's refusal of a product of two dtypes, in the case whose stages are float64."""
    return CheckFailed(
        f"for {where}, your step raised RuntimeError ({str(error).splitlines()[0][:100]}): "
        "a tensor in another dtype than the stages' met theirs: a cast (.float(), "
        ".to(torch.float32)), or a tensor made without dtype= (float32 by default). Move the "
        "micro-batches and activations with .to(device), which keeps their dtype, and make "
        "any tensor of your own in the loss's dtype (dtype=loss.dtype)"
    )


def check_raced(raced: list[str], where) -> None:
    if raced:
        raise CheckFailed(
            f"for {where}, {raced[0]} on the CPU used a copy that .to('cpu', "
            "non_blocking=True) made before anything waited for it: on a GPU that copy runs "
            "behind the host's back, and stage 2 can compute on the buffer before the "
            "activations land (zeros, or what it held before). Copy to the CPU without "
            "non_blocking (a copy to a GPU may keep it: it is queued behind the work it needs)"
        )


def check_reads(reads: list[str], where) -> None:
    if len(reads) <= 1:
        return
    if SAVED_TO_HOST in reads:
        raise CheckFailed(
            f"for {where}, your step copied {reads.count(SAVED_TO_HOST)} tensors saved for "
            "backward from the device to the host (torch.autograd.graph.save_on_cpu(), or "
            "saved_tensors_hooks that call .cpu()): each copy without pinned memory makes the "
            "host wait for the device, in every operation of the forward, so stage 1 cannot "
            "run ahead while stage 2 works. Leave the saved activations on their devices"
        )
    raise CheckFailed(
        f"for {where}, your step read device values on the host {len(reads)} times "
        f"({', '.join(sorted(set(reads)))}): each read waits until the device has "
        "finished, so stage 1 cannot run ahead while stage 2 works. Keep the loss a "
        "tensor and read it (if at all) once, at the end"
        + (
            "; a copy to the CPU is a read too: move the activations from stage 1's device "
            "straight to stage 2's"
            if any(r in (".cpu()", ".to('cpu')") for r in reads)
            else ""
        )
    )


def gathered(h: torch.Tensor, x: torch.Tensor) -> bool:
    """Whether ``h``'s rows are rows of ``x`` but not a run of consecutive ones in order
    (``x[perm]``); rows of another shape or dtype, or not of ``x``, are not judged here."""
    n = len(h) if h.dim() else 0
    if not n or h.shape[1:] != x.shape[1:] or h.dtype != x.dtype:
        return False
    if any(torch.equal(x[a : a + n], h) for a in range(len(x) - n + 1)):
        return False
    flat = x.flatten(1) if x.dim() > 1 else x[:, None]
    return all(bool((flat == row.reshape(-1)).all(1).any()) for row in h)


GATHERED = (
    "stage 1 got a micro-batch that is not a run of consecutive rows of x: the rows were "
    "reordered or gathered (torch.randperm, x[perm]), so micro-batch i is not tensor_split's "
    "i-th piece, each is a gathered copy of x, and a random permutation also moves the "
    "caller's random state. Micro-batch i must be rows of x in order, "
    "torch.tensor_split(x, M)[i]: no shuffle (the data loader shuffles, before the step)"
)


def check_split(stage, where) -> None:
    """Stage 1 (``stage``, a :class:`._ch09_stages.LoggedStage`) got each micro-batch as a
    run of consecutive rows of ``x``."""
    if stage.gathered:
        raise CheckFailed(f"for {where}, {GATHERED}")


def swapped_loss_hint(last: str) -> str:
    """The hint for ``loss_fn`` given the targets first and ``last`` (the last stage's)
    output second."""
    return (
        f"loss_fn got the targets first and {last} output second: its arguments are in the "
        "wrong order. torch's losses take (input, target), the model's output first: call "
        "loss_fn(out, target)"
    )
