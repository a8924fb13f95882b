"""Checker of chapter 9's ``09.tensor_parallel``: an MLP split over ranks, by hand.

The answer is a class ``ParallelMLP(mlp, rank, world)``: an ``nn.Module`` that keeps this
rank's share of ``mlp`` (``Linear(d, h)``, an activation, ``Linear(h, d)``), the first
``Linear`` split by its outputs (column-parallel: this rank's hidden units), the second by
its inputs (row-parallel: the matching columns), and whose ``forward(x)`` takes the same
``x`` on every rank and returns the whole output on every rank, gradients included.

It runs on two real gloo ranks started from the kernel (:func:`d2lgpu.ranks.run_ranks`),
on two such blocks one after the other (GELU in the first, LeakyReLU with a slope of 0.2
in the second, so that an activation written in, or made anew with its defaults, is seen), then on three ranks (the hidden units split
4, 4, 2, so that a world of 2 written in is seen), and checks:

* each rank keeps its shards only, counted by the storages its parameters hold (a view
  of the whole weight keeps the whole weight alive), and no storage of the unsplit MLP
  stays alive once the rank lets go of it (a parameter sharing it, a closure over mlp);
* forward hooks nothing on the caller's input (a hook there fires once per call);
* the output equals the unsplit blocks', on every rank;
* from a wrapped ``dist.all_reduce``: one sum per block in forward, of the block's
  output (not inside the column-parallel layer, where each rank's hidden units are its
  own), and one per block in backward, of the gradient of the block's input (Megatron's
  ``f`` and ``g``);
* the gradient of the input equals the unsplit blocks', and one SGD step on each rank's
  shards gives the unsplit model's outputs after the same step (so every shard's
  gradient is right).

The problem and what each rank runs are :mod:`._ch09_tp_problem`'s.
"""

from __future__ import annotations

import tempfile

import torch

from ..ranks import RankFailed, lost_peer, run_ranks
from ._ch09_tp_hints import (
    SplitDiffers,
    input_grad_hint,
    memory_hint,
    other_rank_hint,
    width_hint,
    wire_hint,
    without_grad_hint,
    wrong_output_hint,
)
from ._ch09_tp_problem import (
    BLOCKS,
    HIDDEN,
    LR,
    WIDTH,
    WORLD,
    data,
    hidden_share,
    make_blocks,
    rank_work,
    shard_bytes,
)
from ._kit import Tolerance, close
from ._kit_collective_reads import first_mismatch, read_log
from ._ranks import exit_hint, mismatch_hint, records_of
from ._util import (
    CheckFailed,
    NotAttempted,  # noqa: F401 (what a stub raises, named here for its tests)
    one_cpu_thread,
)

__all__ = ["check_tensor_parallel", "WORLD", "WIDTH", "HIDDEN", "BLOCKS"]

TIMEOUT_S = 30.0
TOLERANCE = Tolerance(rtol=1e-4, atol=1e-5)  # a rank's output and gradients, against one process


def _reference():
    """The unsplit blocks: output, the input's gradient, the output after one SGD step."""
    blocks = make_blocks()
    x, weight = data()
    x = x.clone().requires_grad_()
    out = x
    for b in blocks:
        out = b(out)
    (out * weight).sum().backward()
    with torch.no_grad():
        for b in blocks:
            for p in b.parameters():
                p -= LR * p.grad
        after = x.detach()
        for b in blocks:
            after = b(after)
    return {"out": out.detach(), "x_grad": x.grad, "after": after}


@one_cpu_thread
def check_tensor_parallel(answer, passed: list[str]) -> None:
    """``09.tensor_parallel``: a column- then row-parallel MLP over 2 gloo ranks."""
    ParallelMLP = answer
    if not isinstance(ParallelMLP, type) and not callable(ParallelMLP):
        raise CheckFailed(f"the answer must be the class ParallelMLP, got {ParallelMLP!r}")
    reference = _reference()  # first: ranks forked after it find autograd warm
    records = _records(ParallelMLP, WORLD)
    _check_memory(records)
    passed.append(f"each of {WORLD} ranks keeps only its shards ({shard_bytes()} bytes)")
    _check_forward(records, reference)
    passed.append(
        f"the output of {BLOCKS} blocks equals the unsplit MLPs' on every rank, with one "
        "all-reduce (a sum of the block's output) per block"
    )
    _check_backward(records, reference)
    passed.append(
        "one all-reduce per block in backward, of the input's gradient; the input's gradient "
        "(a block applied twice in one forward too) and, after one SGD step on the shards, the "
        "outputs equal the unsplit model's"
    )
    for rank, r in enumerate(records):
        if r["other_rank"] is not True:
            raise CheckFailed(other_rank_hint(rank, WORLD, r["other_rank"]))
    passed.append("ParallelMLP(mlp, r, world) built on another rank holds rank r's shards")
    # 3 ranks: 10 hidden units in 4, 4 and 2, so that a world of 2 written in is seen
    try:
        records = _records(ParallelMLP, 3)
        _check_memory(records)
        _check_forward(records, reference)
        _check_backward(records, reference)
    except SplitDiffers as failed:  # the hint says how the rank's split differs
        raise CheckFailed(f"on 3 ranks (right on 2): {failed}") from None
    except CheckFailed as failed:
        if " called sys.exit " in str(failed):
            raise CheckFailed(
                f"on 3 ranks (the hidden units split 4, 4, 2 by torch.chunk; right on 2): {failed}"
            ) from None
        raise CheckFailed(
            f"on 3 ranks (right on 2): {str(failed).rstrip('.')}. Is the number of ranks, 2, "
            "written in "
            "somewhere? Split with the world you are given: torch.chunk(torch.arange(h), "
            "world)[rank]"
        ) from None
    passed.append("all of the above on 3 ranks too (hidden units split 4, 4, 2 by torch.chunk)")


def _records(ParallelMLP, world):
    """Each rank's record of the answer on ``world`` gloo ranks."""
    with tempfile.TemporaryDirectory(prefix="d2lgpu-calls-") as logs:
        try:
            replies = run_ranks(rank_work(ParallelMLP, logs), world=world, timeout_s=TIMEOUT_S)
        except RankFailed as error:
            calls = [read_log(f"{logs}/rank{r}") for r in range(world)]
            mismatch = first_mismatch(calls)
            if mismatch is not None:
                hint = mismatch_hint(error.rank, "late", mismatch, _SAME_CALLS)
                raise CheckFailed(hint) from None
            raise CheckFailed(f"{error}. {_SAME_CALLS}") from None
        # the rank whose own error made the others lose their peer is the one reported
        return records_of(replies, _hint, logs, _SAME_CALLS)


def _hint(rank, status, payload):
    if status != "error":  # the rank's reply is the checker's own: any other is its bug
        raise RuntimeError(f"rank {rank} replied {status!r}, not ok, stub or error")
    exited = exit_hint(rank, payload)
    if exited is not None:
        return exited
    more = f". {_SAME_CALLS}" if lost_peer(payload) else ""
    return f"rank {rank}: your code raised {payload}{more}"


_SAME_CALLS = (
    "Every rank must call the same all-reduces, in the same order, on tensors of the same "
    "shape (no `if rank == 0:` around one): a rank waits in a collective until the others "
    "call it too"
)


def _check_memory(records):
    world = len(records)
    for r in records:
        if r.get("broken"):
            raise CheckFailed(r["broken"])
    for rank, r in enumerate(records):
        if r.get("shares_whole"):
            raise CheckFailed(
                f"rank {rank} keeps the unsplit MLP's own parameters: make new nn.Parameter "
                "shards (cloned slices) of its weights"
            )
        failed = memory_hint(rank, world, r)
        if failed is not None:
            raise failed


def _shapes(calls):
    return [c.shape for c in calls]


def _check_forward(records, reference):
    world = len(records)
    for rank, r in enumerate(records):
        hidden = hidden_share(rank, world)
        calls = r["forward"]
        if any(c.op != "SUM" for c in calls):
            raise CheckFailed(
                f"rank {rank} all-reduced with {sorted({c.op for c in calls})}: the shares of "
                "the row-parallel product add up to the output, so use the default op=SUM"
            )
        if any(c.shape and c.shape[-1] in {hidden, HIDDEN} - {WIDTH} for c in calls):
            raise CheckFailed(
                f"rank {rank} all-reduced the hidden activations in forward (shapes "
                f"{_shapes(calls)}): an all-reduce inside the column-parallel layer. Its "
                "hidden units are this rank's own, not shares of a sum; the only sum is after "
                "the row-parallel layer, of the block's output"
            )
        if not calls and close(r["out"], reference["out"], TOLERANCE):
            raise CheckFailed(
                f"rank {rank}'s output is right, but no call through dist.all_reduce was seen "
                "in forward: the checker counts calls written dist.all_reduce(...) (with "
                "import torch.distributed as dist). A name imported with `from "
                "torch.distributed import all_reduce`, or another API, is not seen"
            )
        if not calls:
            raise CheckFailed(
                f"rank {rank} ran no all-reduce in forward: each rank's row-parallel product "
                "is only its share of the output; sum the shares with dist.all_reduce"
            )
        if len(calls) != BLOCKS:
            raise CheckFailed(
                f"rank {rank} ran {len(calls)} all-reduces in forward through {BLOCKS} blocks "
                f"(shapes {_shapes(calls)}): one per block, of the block's output"
            )
        wire = wire_hint(rank, calls, "forward")
        if wire is not None:
            raise CheckFailed(wire)
        out, ref = r["out"], reference["out"]
        if out.shape != ref.shape:
            raise CheckFailed(
                f"rank {rank}'s output has shape {tuple(out.shape)}, not {tuple(ref.shape)}"
            )
        if not close(out, ref, TOLERANCE):
            raise CheckFailed(wrong_output_hint(rank, world, out, ref, TOLERANCE))
        if r["no_grad"]:
            raise CheckFailed(
                "the output does not require grad: autograd cannot see through "
                "dist.all_reduce (or your forward ran under no_grad). Wrap the all-reduce in a "
                "torch.autograd.Function whose backward says what the gradient is"
            )
        if wide := width_hint(rank, world, r["saved"]):
            raise CheckFailed(wide)


def _check_backward(records, reference):
    for rank, r in enumerate(records):
        calls = r["backward"]
        if r["without_grad"]:
            raise CheckFailed(without_grad_hint(rank, r["without_grad"]))
        if any(c.op != "SUM" for c in calls):
            raise CheckFailed(
                f"rank {rank} all-reduced with {sorted({c.op for c in calls})} in backward: "
                "the input's gradient is the sum of the ranks' shares, op=SUM"
            )
        if not calls:
            raise CheckFailed(
                f"rank {rank} skipped the backward all-reduce: the gradient that reaches the "
                "block's input from the column-parallel layer is only this rank's share (its "
                "hidden units' part). In backward, sum it over the ranks (Megatron's f: the "
                "identity forward, an all-reduce backward)"
            )
        if len(calls) > BLOCKS:
            raise CheckFailed(
                f"rank {rank} ran {len(calls)} all-reduces in backward through {BLOCKS} blocks "
                f"(shapes {_shapes(calls)}): the forward's sum has the identity for backward, "
                "since the output's gradient is the same on every rank. Does your forward "
                "all-reduce (e.g. torch.distributed.nn.functional.all_reduce) all-reduce "
                "again in backward?"
            )
        if len(calls) != BLOCKS:
            raise CheckFailed(
                f"rank {rank} ran {len(calls)} all-reduces in backward through {BLOCKS} blocks: "
                "one per block, of the gradient of the block's input, in that block's backward. "
                "A sum made once, after the whole backward (a callback queued to its end, on "
                "the caller's x.grad), reaches only the first block's input: a block fed by "
                "another passes on only its share"
            )
        wire = wire_hint(rank, calls, "backward")
        if wire is not None:
            raise CheckFailed(wire)
        if not close(r["x_grad"], reference["x_grad"], TOLERANCE):
            raise CheckFailed(
                input_grad_hint(
                    rank,
                    len(records),
                    r["x_grad"],
                    reference["x_grad"],
                    TOLERANCE,
                    r["legacy_hook"],
                )  # fmt: skip
            )
        if not r["twice"]:
            raise CheckFailed(
                f"rank {rank}: block 0 applied twice in one forward (a layer used twice) gives "
                "its input a gradient unlike the unsplit model's, where one call gives the "
                "right one: each call must sum its own input's gradient in backward. A hook "
                "handle kept on the module and removed at the next call, a buffer kept on it "
                "and reused (or anything kept per module, not per call) loses the first call's. "
                "Use a torch.autograd.Function, or a hook on a view made in each call, each "
                "returning a new tensor"
            )
        if not close(r["after"], reference["after"], TOLERANCE):
            raise CheckFailed(
                f"after one SGD step on each rank's shards, rank {rank}'s output differs from "
                "the unsplit model's after the same step: some shard's gradient is wrong (the "
                "backward of the forward's sum must pass the gradient through unchanged, and "
                "fc2's bias get the output's whole gradient, as when added once after the sum)"
            )
