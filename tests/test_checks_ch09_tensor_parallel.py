"""09.tensor_parallel: right answers in three styles pass; the usual mistakes fail with a
hint that names them. Each answer runs in two forked gloo ranks."""

import functools
import re

import grading_helpers
import pytest
import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch import nn

from d2lgpu.checks import ch09_tensor_parallel as tp
from d2lgpu.checks._util import one_cpu_thread
from d2lgpu.grading import check


def assert_fails(answer, *hint_parts):
    return grading_helpers.assert_fails("09.tensor_parallel", answer, *hint_parts)


# --- Megatron's f and g, as autograd Functions -------------------------------------------


class Copy(torch.autograd.Function):  # f: identity forward, all-reduce backward
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class Reduce(torch.autograd.Function):  # g: all-reduce forward, identity backward
    @staticmethod
    def forward(ctx, x):
        x = x.clone()
        dist.all_reduce(x)
        return x

    @staticmethod
    def backward(ctx, grad):
        return grad


class NoReduceBackward(torch.autograd.Function):  # f without its all-reduce
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        return grad


def rows_of(linear, rank, world):
    return torch.chunk(torch.arange(linear.out_features), world)[rank]


class Megatron(nn.Module):
    """The solution's shape: shards as parameters, f before fc1, g after fc2."""

    copy, reduce, reduce_op = Copy, Reduce, None

    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, self.act, fc2 = mlp
        mine = rows_of(fc1, rank, world)
        self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())

    def forward(self, x):
        h = self.act(F.linear(self.copy.apply(x), self.w1, self.b1))
        return self.reduce.apply(F.linear(h, self.w2)) + self.b2


class WithHook(nn.Module):
    """Another correct answer: the backward all-reduce as a tensor hook, sliced nn.Linears."""

    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = mlp
        mine = rows_of(fc1, rank, world)
        self.fc1 = nn.Linear(fc1.in_features, len(mine))
        self.fc2 = nn.Linear(len(mine), fc2.out_features)
        with torch.no_grad():
            self.fc1.weight.copy_(fc1.weight[mine])
            self.fc1.bias.copy_(fc1.bias[mine])
            self.fc2.weight.copy_(fc2.weight[:, mine])
            self.fc2.bias.copy_(fc2.bias)
        self.act = act

    def forward(self, x):
        x = x.view_as(x)
        if x.requires_grad:
            x.register_hook(_summed)
        return Reduce.apply(F.linear(self.act(self.fc1(x)), self.fc2.weight)) + self.fc2.bias


def _summed(grad):
    grad = grad.clone()
    dist.all_reduce(grad)
    return grad


class BiasOnRankZero(Megatron):
    """Correct too: fc2's bias kept and added by rank 0 only, before the sum."""

    def __init__(self, mlp, rank, world):
        super().__init__(mlp, rank, world)
        self.rank = rank
        if rank != 0:
            del self.b2
            self.b2 = None

    def forward(self, x):
        h = self.act(F.linear(Copy.apply(x), self.w1, self.b1))
        partial = F.linear(h, self.w2, self.b2 if self.rank == 0 else None)
        return Reduce.apply(partial)


@pytest.mark.parametrize("answer", [Megatron, WithHook, BiasOnRankZero])
def test_right_answers_pass(answer):
    result = check("09.tensor_parallel", answer, quiet=True)
    assert result.ok, str(result)
    assert any("keeps only its shards" in p for p in result.passed)
    assert any("in backward" in p for p in result.passed)


# --- wrong answers ---------------------------------------------------------------------


class ReduceInsideColumn(Megatron):
    def forward(self, x):
        h = F.linear(Copy.apply(x), self.w1, self.b1)
        h = Reduce.apply(h)  # summing this rank's hidden units with the other rank's
        h = self.act(h)
        return Reduce.apply(F.linear(h, self.w2)) + self.b2


class SkipsBackward(Megatron):
    copy = NoReduceBackward


class NoForwardReduce(Megatron):
    def forward(self, x):
        h = self.act(F.linear(Copy.apply(x), self.w1, self.b1))
        return F.linear(h, self.w2) + self.b2


class BiasBeforeSum(Megatron):
    def forward(self, x):
        h = self.act(F.linear(Copy.apply(x), self.w1, self.b1))
        return Reduce.apply(F.linear(h, self.w2, self.b2))


class Averages(Megatron):
    def forward(self, x):
        h = self.act(F.linear(Copy.apply(x), self.w1, self.b1))
        partial = F.linear(h, self.w2)
        out = partial.clone()
        dist.all_reduce(out, op=dist.ReduceOp.AVG)
        return out + self.b2


class TorchNnAllReduce(Megatron):
    """torch.distributed.nn's all_reduce: its backward all-reduces the gradient again."""

    def forward(self, x):
        from torch.distributed.nn.functional import all_reduce

        h = self.act(F.linear(Copy.apply(x), self.w1, self.b1))
        return all_reduce(F.linear(h, self.w2)) + self.b2


class NotDifferentiable(Megatron):
    def forward(self, x):
        h = self.act(F.linear(x, self.w1, self.b1))
        partial = F.linear(h, self.w2)
        with torch.no_grad():
            out = partial.clone()
            dist.all_reduce(out)
        return out + self.b2


class KeepsViews(Megatron):
    def __init__(self, mlp, rank, world):
        nn.Module.__init__(self)
        fc1, self.act, fc2 = mlp
        n = fc1.out_features // world
        part = slice(rank * n, (rank + 1) * n)
        self.w1 = nn.Parameter(fc1.weight.detach()[part])  # views: the whole storage
        self.b1 = nn.Parameter(fc1.bias.detach()[part])
        self.w2 = nn.Parameter(fc2.weight.detach()[:, part])
        self.b2 = nn.Parameter(fc2.bias.detach())


class Unsplit(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        self.mlp = mlp

    def forward(self, x):
        out = self.mlp(x)
        return Reduce.apply(out / dist.get_world_size())


class MismatchedShards(Megatron):
    def __init__(self, mlp, rank, world):
        super().__init__(mlp, rank, world)
        other = rows_of(mlp[0], world - 1 - rank, world)
        self.w2 = nn.Parameter(mlp[2].weight.detach()[:, other].clone())


class OnlyRankZeroReduces(Megatron):
    def forward(self, x):
        h = self.act(F.linear(Copy.apply(x), self.w1, self.b1))
        partial = F.linear(h, self.w2)
        if dist.get_rank() == 0:
            partial = Reduce.apply(partial)
        return partial + self.b2


class TransposedOnce(Megatron):
    """fc2's shard transposed once, when the module is built: stale after a step."""

    def __init__(self, mlp, rank, world):
        super().__init__(mlp, rank, world)
        self.w2_t = self.w2.t().contiguous()  # computed from a Parameter: has a grad_fn

    def forward(self, x):
        h = self.act(F.linear(self.copy.apply(x), self.w1, self.b1))
        return self.reduce.apply(h @ self.w2_t) + self.b2


class EveryWorldthUnit(Megatron):
    """Hidden units rank::world: right outputs and gradients, not torch.chunk's split."""

    def __init__(self, mlp, rank, world):
        nn.Module.__init__(self)
        fc1, self.act, fc2 = mlp
        mine = torch.arange(fc1.out_features)[rank::world]
        self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())


@pytest.mark.parametrize(
    ("answer", "hint"),
    [
        (TransposedOnce, "keeps w2_t, computed once from a parameter when the module is built"),
        (EveryWorldthUnit, "nor rank 0's: its hidden units are a split of your own"),
        (ReduceInsideColumn, "inside the column-parallel layer"),
        (SkipsBackward, "skipped the backward all-reduce"),
        (NoForwardReduce, "no all-reduce in forward"),
        (BiasBeforeSum, "bias 2 times"),
        (Averages, "op=SUM"),
        (TorchNnAllReduce, "all-reduce again in backward"),
        (NotDifferentiable, "got no gradient"),
        (KeepsViews, "is a view"),
        (Unsplit, "unsplit MLP's own parameters"),
        (MismatchedShards, "same hidden units"),
    ],
)
def test_mistakes_are_named(answer, hint):
    assert_fails(answer, hint)


def test_a_collective_on_one_rank_only_is_reported_not_hung(monkeypatch):
    monkeypatch.setattr(tp, "TIMEOUT_S", 3.0)
    assert_fails(OnlyRankZeroReduces, "same all-reduces")


def test_stub_and_errors():
    class Stub(nn.Module):
        def __init__(self, mlp, rank, world):
            raise NotImplementedError("your code here")

    assert check("09.tensor_parallel", Stub, quiet=True).status == "not attempted"

    class Raises(Megatron):
        def forward(self, x):
            return self.w1 @ x  # wrong shapes

    assert_fails(Raises, "rank 0: your code raised RuntimeError", "self.w1 @ x")

    class NoRank(nn.Module):  # the prompt's (mlp, rank, world) without rank and world
        def __init__(self, mlp):
            super().__init__()

    hint = check("09.tensor_parallel", NoRank, quiet=True).hint
    assert hint.startswith(
        "your test_stub_and_errors.<locals>.NoRank.__init__() could not be called as the "
        "exercise calls it (TypeError: test_stub_and_errors.<locals>.NoRank.__init__() takes 2 "
        "positional arguments but 4 were given): nothing of it ran."
    ), hint


def test_shard_bytes_is_half_the_weights_plus_a_bias():
    whole = sum(p.nbytes for b in tp.make_blocks() for p in b.parameters())
    bias = tp.BLOCKS * tp.WIDTH * 4
    assert tp.shard_bytes() == (whole - bias) // tp.WORLD + bias


# The two blocks' activations differ (GELU, then LeakyReLU(0.2)): one written in is seen.


class GeluWrittenIn(Megatron):
    def forward(self, x):
        h = F.gelu(F.linear(Copy.apply(x), self.w1, self.b1))  # "the MLP's GELU"
        return Reduce.apply(F.linear(h, self.w2)) + self.b2


class LeakyReluModuleWrittenIn(Megatron):
    def __init__(self, mlp, rank, world):
        super().__init__(mlp, rank, world)
        self.act = nn.LeakyReLU(0.2)


class ActivationMadeAnew(Megatron):
    """type(mlp[1])(): the same kind of activation, with its default arguments."""

    def __init__(self, mlp, rank, world):
        super().__init__(mlp, rank, world)
        self.act = type(mlp[1])()


@pytest.mark.parametrize(
    ("answer", "hints"),
    [
        (GeluWrittenIn, ["all use GELU", "mlp[1]"]),
        (
            LeakyReluModuleWrittenIn,
            ["all use LeakyReLU(negative_slope=0.2)", "not one of your choice"],
        ),
        (
            ActivationMadeAnew,
            [
                "activations made anew with their default arguments "
                "(LeakyReLU(negative_slope=0.01) where the mlp has "
                "LeakyReLU(negative_slope=0.2))",
                "not type(mlp[1])()",
            ],
        ),
    ],
)
def test_an_activation_written_in_is_named(answer, hints):
    assert_fails(answer, *hints)


def parallel_mlp(mlp, rank, world, *, announce=False):
    """A factory function, not a class: the shards made in place with an out= copy."""
    part = Megatron(mlp, rank, world)
    with torch.no_grad():
        torch.mul(part.w1, 1.0, out=part.w1)  # out= onto a parameter, a no-op
    if announce:
        print(f"rank {rank} of {world}: {sum(p.numel() for p in part.parameters())} numbers")
    return part


@pytest.mark.parametrize(
    "answer",
    [parallel_mlp, functools.partial(parallel_mlp, announce=True)],
    ids=["factory", "partial_with_prints"],
)
def test_right_answers_in_other_styles_pass(answer):
    assert check("09.tensor_parallel", answer, quiet=True).ok


# A second run on 3 ranks: a world of 2 written in is seen.


class ChunksInTwo(Megatron):
    def __init__(self, mlp, rank, world):
        super().__init__(mlp, rank, 2)  # "two GPUs", as on the machine it was written on


class HalvesBySlicing(Megatron):
    def __init__(self, mlp, rank, world):
        nn.Module.__init__(self)
        fc1, self.act, fc2 = mlp
        half = fc1.out_features // 2
        mine = slice(rank * half, (rank + 1) * half)  # half of the hidden units each
        self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())


@pytest.mark.parametrize(
    ("answer", "hints"),
    [
        (ChunksInTwo, ["on 3 ranks (right on 2)", "rank 2: your code raised", "written in"]),
        (HalvesBySlicing, ["on 3 ranks (right on 2)", "torch.chunk(torch.arange(h), world)"]),
    ],
)
def test_a_world_of_two_written_in_is_named(answer, hints):
    assert_fails(answer, *hints)


def test_shard_bytes_on_one_rank_are_the_whole_mlps():
    whole = sum(p.nbytes for b in tp.make_blocks() for p in b.parameters())
    assert tp.shard_bytes(1) == whole


def test_shard_bytes_per_rank_follow_torch_chunk():
    assert [tp.hidden_share(r, 3) for r in range(3)] == [4, 4, 2]
    assert tp.shard_bytes(3, 0) == tp.shard_bytes(3, 1) > tp.shard_bytes(3, 2)
    assert tp.shard_bytes(2, 0) == tp.shard_bytes(2, 1) == tp.shard_bytes()


class AveragingCopy(torch.autograd.Function):  # f with op=AVG in backward
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad, op=dist.ReduceOp.AVG)
        return grad


class AveragesInBackward(Megatron):
    copy = AveragingCopy


class ReducesTwice(Megatron):
    def forward(self, x):
        h = self.act(F.linear(Copy.apply(x), self.w1, self.b1))
        return Reduce.apply(Reduce.apply(F.linear(h, self.w2))) + self.b2


@pytest.mark.parametrize(
    ("answer", "hints"),
    [
        (
            AveragesInBackward,
            [
                "rank 0 all-reduced with ['AVG'] in backward: the input's gradient is the sum of "
                "the ranks' shares, op=SUM"
            ],
        ),
        (ReducesTwice, ["ran 4 all-reduces in forward through 2 blocks", "of the block's output"]),
    ],
)
def test_a_wrong_all_reduce_count_or_op_is_named_with_what_the_rank_ran(answer, hints):
    assert_fails(answer, *hints)


class UnderNoGrad(Megatron):
    """The forward run under no_grad ("the all-reduce is communication, not maths")."""

    def forward(self, x):
        with torch.no_grad():
            return super().forward(x)


@pytest.mark.parametrize(
    ("answer", "advice"),
    [
        (BiasBeforeSum, "each rank added it before the all-reduce summed them. Add it once, "
         "after the sum"),
        (Averages, "the shares of the row-parallel product add up to the output, so use the "
         "default op=SUM"),
        (KeepsViews, "Keep fc1's rows for this rank's hidden units (and their biases), fc2's "
         "matching columns, and fc2's bias. A slice such as weight[rows] or weight[:, cols] is a "
         "view: the whole weight's storage stays alive. Clone it (weight[a:b].clone())."),
        (UnderNoGrad, "the output does not require grad: autograd cannot see through "
         "dist.all_reduce (or your forward ran under no_grad). Wrap the all-reduce in a "
         "torch.autograd.Function whose backward says what the gradient is"),
    ],
    ids=["bias_before_sum", "averages", "keeps_views", "under_no_grad"],
)  # fmt: skip
def test_a_mistakes_hint_says_what_to_do_instead(answer, advice):
    assert_fails(answer, advice)


def test_views_of_the_whole_weights_hold_what_the_whole_mlps_hold():
    hint = assert_fails(KeepsViews, "is a view").hint
    held = re.search(r"hold (\d+) bytes of storage", hint)
    whole = re.search(r"\(the whole MLPs: (\d+)\)", hint)
    assert held and whole, hint
    assert held.group(1) == whole.group(1), hint


# --- how the parent reads the ranks' replies ---------------------------------------------


def replying(monkeypatch, *replies, seen=None):
    """Stand in for the ranks: each rank's reply as given, the call's arguments in ``seen``."""

    def fake_run_ranks(fn, world, timeout_s):
        if seen is not None:
            seen.update(world=world, timeout_s=timeout_s)
        return list(replies)

    monkeypatch.setattr(tp, "run_ranks", fake_run_ranks)


def test_the_ranks_get_the_checkers_time_limit(monkeypatch):
    seen = {}
    replying(monkeypatch, ("ok", "rank 0's record"), ("ok", "rank 1's record"), seen=seen)
    assert tp._records(Megatron, 2) == ["rank 0's record", "rank 1's record"]
    assert seen == {"world": 2, "timeout_s": tp.TIMEOUT_S}


def test_the_parent_refuses_a_reply_it_does_not_know(monkeypatch):
    replying(monkeypatch, ("ok", {}), ("done", {}))
    with pytest.raises(RuntimeError, match=r"rank 1 replied 'done', not ok, stub or error"):
        tp._records(Megatron, 2)


OWN_ERROR = "ValueError: shapes differ (in your function forward, line 3: `h = x @ w`)"

# what gloo says to a rank whose peer left or never came (its versions vary the wording)
LOST_PEER = [
    "RuntimeError: [gloo/transport/tcp/unbound_buffer.cc:81] Timed out waiting 3000ms for "
    "recv operation to complete",
    "RuntimeError: [gloo/transport/tcp/pair.cc:534] Application timeout caused pair closure",
    "RuntimeError: [gloo/transport/tcp/pair.cc:598] Connection closed by peer [127.0.0.1]:4000",
    "RuntimeError: [gloo/transport/tcp/pair.cc:575] Connection reset by peer",
]


@pytest.mark.parametrize("lost", LOST_PEER, ids=["timed_out", "timeout", "closed", "reset"])
def test_the_rank_whose_own_error_lost_the_other_its_peer_is_the_one_reported(monkeypatch, lost):
    replying(monkeypatch, ("error", lost), ("error", OWN_ERROR))
    with pytest.raises(tp.CheckFailed) as failed:
        tp._records(Megatron, 2)
    assert failed.value.hint == f"rank 1: your code raised {OWN_ERROR}"


@pytest.mark.parametrize("lost", LOST_PEER, ids=["timed_out", "timeout", "closed", "reset"])
def test_a_lost_peer_alone_is_reported_with_the_same_calls_advice(monkeypatch, lost):
    replying(monkeypatch, ("ok", {}), ("error", lost))
    with pytest.raises(tp.CheckFailed) as failed:
        tp._records(Megatron, 2)
    assert failed.value.hint == f"rank 1: your code raised {lost}. {tp._SAME_CALLS}"


def test_a_rank_that_never_finishes_is_reported_with_the_same_calls_advice(monkeypatch):
    def never_finishes(fn, world, timeout_s):
        raise tp.RankFailed(1, f"did not finish within {timeout_s} s")

    monkeypatch.setattr(tp, "run_ranks", never_finishes)
    with pytest.raises(tp.CheckFailed) as failed:
        tp._records(Megatron, 2)
    assert failed.value.hint == f"rank 1: did not finish within {tp.TIMEOUT_S} s. {tp._SAME_CALLS}"


def test_the_stub_is_not_attempted_with_its_own_words():
    class Stub(nn.Module):
        def __init__(self, mlp, rank, world):
            raise NotImplementedError("write ParallelMLP")

    with pytest.raises(tp.NotAttempted, match="write ParallelMLP"):
        tp.check_tensor_parallel(Stub, [])


# A NotImplementedError that torch raises is the learner's error, not the stub.


class ForwardMisspelled(Megatron):
    """`foward`: nn.Module's own forward raises NotImplementedError, with no line of theirs."""

    def foward(self, x):
        return Megatron.forward(self, x)


ForwardMisspelled.forward = nn.Module.forward


class CallsModulesForward(Megatron):
    def forward(self, x):
        return nn.Module.forward(self, x)  # meant the mlp's


@pytest.mark.parametrize(
    ("answer", "hints"),
    [
        (ForwardMisspelled, ["rank 0: your code raised NotImplementedError", '"forward"']),
        (
            CallsModulesForward,
            ["rank 0: your code raised NotImplementedError", "return nn.Module.forward(self, x)"],
        ),
    ],
)
def test_a_not_implemented_error_from_torch_is_an_error_not_the_stub(answer, hints):
    assert_fails(answer, *hints)


# --- more wrong answers ------------------------------------------------------------------


class ReturnsABatchOfOne(Megatron):
    def forward(self, x):
        return super().forward(x).unsqueeze(0)  # (1, rows, d): a batch of one, per block


class ClonesTheWholeFc2(Megatron):
    """Clones fc2's whole weight and slices it in forward: no view, but too much kept."""

    def __init__(self, mlp, rank, world):
        super().__init__(mlp, rank, world)
        self.mine = rows_of(mlp[0], rank, world)
        self.fc2_weight = nn.Parameter(mlp[2].weight.detach().clone())
        del self.w2

    def forward(self, x):
        h = self.act(F.linear(Copy.apply(x), self.w1, self.b1))
        return Reduce.apply(F.linear(h, self.fc2_weight[:, self.mine])) + self.b2


class LastRankTakesTheRest(Megatron):
    """h // world units each, the rest to the last rank: 3, 3, 4 of 10, not torch.chunk's."""

    def __init__(self, mlp, rank, world):
        nn.Module.__init__(self)
        fc1, self.act, fc2 = mlp
        n = fc1.out_features // world
        end = fc1.out_features if rank == world - 1 else (rank + 1) * n
        mine = slice(rank * n, end)
        self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())


def test_an_output_of_the_wrong_shape_is_named():
    # the second block's all-reduce is of a (1, 5, 6): its last dimension, not its second, is
    # what a hidden activation's would match
    assert_fails(ReturnsABatchOfOne, "rank 0's output has shape (1, 1, 5, 6), not (5, 6)")


def test_a_whole_weight_cloned_is_too_much_storage_but_not_a_view():
    hint = assert_fails(ClonesTheWholeFc2, "rank 0 of 2's parameters hold").hint
    assert hint.endswith("fc2's matching columns, and fc2's bias."), hint
    assert "is a view" not in hint, hint


def test_the_last_rank_of_three_is_held_to_its_own_shard():
    hint = assert_fails(LastRankTakesTheRest, "on 3 ranks (right on 2): rank 2 of 3's").hint
    assert f"its shards are {tp.shard_bytes(3, 2)} " in hint, hint
    # it wrote no 2 in: the hint names its split, 4 units where torch.chunk gives 2
    assert (
        "That is 4 hidden units per block, where torch.chunk(torch.arange(10), 3)[2] gives it 2 (4, 4, 2). A split of your own"
        in hint
    ), hint
    assert "written in" not in hint, hint
    assert "is a view" not in hint, hint


# One CPU thread, as the checker computes: a thread pool this process starts would hang its
# forked children (mutmut forks a copy of pytest's process for each mutant).
@one_cpu_thread
def mismatched_output():
    """What MismatchedShards computes: rank r's hidden units through the other rank's columns."""
    x, _ = tp.data()
    with torch.no_grad():
        for fc1, act, fc2 in tp.make_blocks():
            out = fc2.bias.clone()
            for rank in range(2):
                mine, other = rows_of(fc1, rank, 2), rows_of(fc1, 1 - rank, 2)
                h = act(F.linear(x, fc1.weight[mine], fc1.bias[mine]))
                out = out + F.linear(h, fc2.weight[:, other])
            x = out
    return x


def test_a_wrong_output_is_named_by_rank_with_its_largest_difference():
    hint = assert_fails(MismatchedShards, "rank 0's output differs from the unsplit MLPs'").hint
    by = re.search(r"by up to ([0-9.e+-]+):", hint)
    assert by, hint
    reference = one_cpu_thread(tp._reference)()["out"]
    expected = (mismatched_output() - reference).abs().max().item()
    assert float(by.group(1)) == pytest.approx(expected, rel=1e-2), hint


class SumsOnlyTheInputsGradient(WithHook):
    """The backward all-reduce only on the model's input (a leaf), not on each block's."""

    def forward(self, x):
        if x.is_leaf and x.requires_grad:
            x = x.view_as(x)
            x.register_hook(_summed)
        return Reduce.apply(F.linear(self.act(self.fc1(x)), self.fc2.weight)) + self.fc2.bias


class KeepsItsOwnShareCopy(torch.autograd.Function):  # f that sums a copy, returns its own
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        summed = grad.clone()
        dist.all_reduce(summed)
        return grad  # not the sum


class ReturnsItsOwnShare(Megatron):
    copy = KeepsItsOwnShareCopy


class AddsABiasShareBeforeTheSum(Megatron):
    """fc2's bias / world on each rank, summed: the output is right, the bias's gradient not."""

    def forward(self, x):
        h = self.act(F.linear(Copy.apply(x), self.w1, self.b1))
        return Reduce.apply(F.linear(h, self.w2) + self.b2 / dist.get_world_size())


@pytest.mark.parametrize(
    ("answer", "hints"),
    [
        (
            SumsOnlyTheInputsGradient,
            ["rank 0 ran 1 all-reduces in backward through 2 blocks: one per block, of the "
             "gradient of the block's input"],
        ),
        (
            ReturnsItsOwnShare,
            ["rank 0's gradient of the input differs from the unsplit model's: in backward, sum "
             "the column-parallel layer's input gradient over the ranks, once"],
        ),
        (
            AddsABiasShareBeforeTheSum,
            ["after one SGD step on each rank's shards, rank 0's output differs from the "
             "unsplit model's after the same step: some shard's gradient is wrong (the "
             "backward of the forward's sum must pass the gradient through unchanged, and "
             "fc2's bias get the output's whole gradient, as when added once after the sum)"],
        ),
    ],
    ids=["one_block_summed", "own_share_returned", "bias_share"],
)  # fmt: skip
def test_a_wrong_gradient_is_named(answer, hints):
    assert_fails(answer, *hints)


# --- what the red-team answers of round 6 found ------------------------------------------


class KeepsTheMlpInAClosure(Megatron):
    """Shards right, but `self.act` a lambda over mlp: the whole MLP stays alive."""

    def __init__(self, mlp, rank, world):
        super().__init__(mlp, rank, world)
        del self.act  # a module; a lambda in its place
        self.act = lambda t: mlp[1](t)


class SharesFc2sBias(Megatron):
    """fc2's bias detached, not cloned: the same storage as the unsplit MLP's."""

    def __init__(self, mlp, rank, world):
        super().__init__(mlp, rank, world)
        self.b2 = nn.Parameter(mlp[2].bias.detach())


class KeepsAnUnusedBias(Megatron):
    """fc2's bias added by rank 0 only, before the sum; the other ranks keep one unused."""

    def __init__(self, mlp, rank, world):
        super().__init__(mlp, rank, world)
        self.rank = rank

    def forward(self, x):
        h = self.act(F.linear(Copy.apply(x), self.w1, self.b1))
        return Reduce.apply(F.linear(h, self.w2, self.b2 if self.rank == 0 else None))


class FreezesFc2sBias(Megatron):
    def __init__(self, mlp, rank, world):
        super().__init__(mlp, rank, world)
        self.b2.requires_grad_(False)  # "the same on every rank: it must not diverge"


class HooksTheCallersInput(Megatron):
    """x's gradient summed by a hook on the caller's tensor, not on a view of it."""

    def forward(self, x):
        if x.requires_grad:
            x.register_hook(_summed)
        return Reduce.apply(F.linear(self.act(F.linear(x, self.w1, self.b1)), self.w2)) + self.b2


class ReturnsNothing(Megatron):
    def forward(self, x):
        self.out = super().forward(x)


class ImportedAllReduce(torch.autograd.Function):  # g through a name the checker cannot see
    @staticmethod
    def forward(ctx, x):
        x = x.clone()
        torch.distributed.distributed_c10d.all_reduce(x)
        return x

    @staticmethod
    def backward(ctx, grad):
        return grad


class CountsNoAllReduce(Megatron):
    reduce = ImportedAllReduce

    def forward(self, x):
        h = self.act(F.linear(Copy.apply(x), self.w1, self.b1))
        return self.reduce.apply(F.linear(h, self.w2)) + self.b2


class ContiguousNotClone(Megatron):
    """.contiguous() for .clone(): fc1's rows are contiguous already, so they stay views."""

    def __init__(self, mlp, rank, world):
        nn.Module.__init__(self)
        fc1, self.act, fc2 = mlp
        mine = rows_of(fc1, rank, world)
        cut = slice(int(mine[0]), int(mine[-1]) + 1)
        self.w1 = nn.Parameter(fc1.weight.detach()[cut].contiguous())
        self.b1 = nn.Parameter(fc1.bias.detach()[cut].contiguous())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, cut].contiguous())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())


class TensorSplitUnits(Megatron):
    """torch.tensor_split's 4, 3, 3 of 10 hidden units, not torch.chunk's 4, 4, 2."""

    def __init__(self, mlp, rank, world):
        nn.Module.__init__(self)
        fc1, self.act, fc2 = mlp
        mine = torch.tensor_split(torch.arange(fc1.out_features), world)[rank]
        self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())


class WithDTensor(nn.Module):
    """PyTorch's own tensor parallelism, not the exercise's by hand."""

    def __init__(self, mlp, rank, world):
        super().__init__()
        import copy

        from torch.distributed.device_mesh import init_device_mesh
        from torch.distributed.tensor.parallel import (
            ColwiseParallel,
            RowwiseParallel,
            parallelize_module,
        )

        mesh = init_device_mesh("cpu", (world,))
        plan = {"0": ColwiseParallel(), "2": RowwiseParallel()}
        self.mlp = parallelize_module(copy.deepcopy(mlp), mesh, plan)

    def forward(self, x):
        return self.mlp(x)


@pytest.mark.parametrize(
    ("answer", "hints"),
    [
        (
            KeepsTheMlpInAClosure,
            [
                "rank 0 keeps the unsplit MLP's fc1's weight, fc1's bias, "
                "fc2's weight, fc2's bias alive after ParallelMLP(...) returned",
                "lambda t: mlp[1](t)",
                "self.act = mlp[1]",
            ],
        ),
        (
            SharesFc2sBias,
            [
                "rank 0's parameters share storage with the unsplit MLP's fc2's bias",
                "fc2.bias.detach().clone()",
            ],
        ),
        (
            KeepsAnUnusedBias,
            [
                "rank 1: 2 of your parameters got no gradient (b2 of block 0, b2 of block 1)",
                "Does forward use them on every rank",
            ],
        ),
        (
            FreezesFc2sBias,
            [
                "rank 0: b2 of block 0, b2 of block 1 have requires_grad=False, so they get no gradient"
            ],
        ),
        (
            HooksTheCallersInput,
            [
                "forward registered a hook on its input (the tensor block 0 was given",
                "torch.autograd.Function",
            ],
        ),
        (ReturnsNothing, ["forward returned NoneType, not a tensor", "`return`"]),
        (
            CountsNoAllReduce,
            [
                "rank 0's output is right, but no call through dist.all_reduce was seen in forward",
                "from torch.distributed import all_reduce",
            ],
        ),
        (ContiguousNotClone, ["is a view", ".contiguous() copies nothing"]),
        (
            TensorSplitUnits,
            [
                "on 3 ranks (right on 2): rank 2 of 3's",
                "That is 3 hidden units "
                "per block, where torch.chunk(torch.arange(10), 3)[2] gives it 2",
                "A split of your own",
            ],
        ),
        (WithDTensor, ["parameters are DTensors", "by hand"]),
    ],
    ids=lambda v: v.__name__ if isinstance(v, type) else "",
)
def test_round_6s_mistakes_are_named(answer, hints):
    hint = assert_fails(answer, *hints).hint
    assert "written in" not in hint, hint  # none of them wrote a world of 2 in
    assert "your code raised" not in hint, hint


def test_round_21_rules_on_records_name_dtypes_shared_parameters_and_another_ranks_shard():
    """Round 21: shards kept in bfloat16, all-reduces in float16 or float64, Parameters shared
    by two blocks (a class-level cache), and a shard built for another rank that asks dist."""
    from d2lgpu.checks._ch09_tp_hints import memory_hint, other_rank_hint, wire_hint
    from d2lgpu.ranks import AllReduceCall

    said = str(memory_hint(0, 2, {"held": 0, "dtypes": ["bfloat16"]}))
    assert "bfloat16, not float32 as the blocks are" in said and "no .to(...)" in said
    said = str(memory_hint(1, 2, {"held": 0, "shared_parts": True}))
    assert "share Parameters" in said and "cache" in said and "every instance" in said
    assert wire_hint(0, [AllReduceCall((5, 6), 120, "SUM")], "forward") is None
    said = wire_hint(
        0, [AllReduceCall((5, 6), 120, "SUM"), AllReduceCall((5, 6), 60, "SUM")], "forward"
    )
    assert "in forward sent a tensor of shape (5, 6) in 60 bytes, 2 bytes an element" in said
    assert "float16 or bfloat16 rounds the sum" in said
    said = wire_hint(1, [AllReduceCall((5, 6), 240, "SUM")], "backward")
    assert "in backward" in said and "upcast (float64) sends 2 times the bytes" in said
    said = other_rank_hint(0, 2)
    assert said.startswith("ParallelMLP(mlp, 1, 2) built on rank 0 does not hold rank 1's")
    assert "dist.get_rank()" in said and "from the arguments" in said


def _holds_other_share(cls, rank, world):
    from d2lgpu.checks._ch09_tp_given import holds_other_share
    from d2lgpu.checks._ch09_tp_problem import make_blocks

    return holds_other_share(cls, make_blocks()[0], rank, world)


def test_round_21_a_shard_built_for_another_rank_is_checked_by_value_in_any_layout():
    class Folded(nn.Module):  # fc1's rows and bias in one Parameter, fc2 transposed
        def __init__(self, mlp, rank, world):
            super().__init__()
            fc1, _, fc2 = mlp
            mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
            both = torch.cat([fc1.weight.detach()[mine], fc1.bias.detach()[mine, None]], 1)
            self.w1 = nn.Parameter(both.clone())
            self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].t().clone())
            self.b2 = nn.Parameter(fc2.bias.detach().clone())

    class AsksRankZero(Folded):
        def __init__(self, mlp, rank, world):
            super().__init__(mlp, 0, world)

    class EveryWorldth(nn.Module):  # units rank::world: right outputs, another split
        def __init__(self, mlp, rank, world):
            super().__init__()
            fc1, _, fc2 = mlp
            mine = torch.arange(fc1.out_features)[rank::world]
            self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone())
            self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone())
            self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone())

    assert _holds_other_share(Folded, 0, 2) is True and _holds_other_share(Folded, 2, 3) is True
    assert _holds_other_share(AsksRankZero, 0, 2) == "own"
    assert _holds_other_share(EveryWorldth, 0, 2) == "split"


def test_round_21_a_shard_without_fc2s_bias_or_a_refusal_for_another_rank_is_not_judged():
    class NoBias(nn.Module):  # fc2's bias kept by rank 0 only
        def __init__(self, mlp, rank, world):
            super().__init__()
            fc1, _, fc2 = mlp
            mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
            self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone())
            self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone())
            self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone())

    class Refuses(NoBias):
        def __init__(self, mlp, rank, world):
            assert rank == 0, "built on its own rank only"
            super().__init__(mlp, rank, world)

    assert _holds_other_share(NoBias, 0, 2) is True and _holds_other_share(Refuses, 0, 2) is True


def test_the_hints_on_what_a_rank_keeps_and_sends_word_for_word():
    from types import SimpleNamespace

    from d2lgpu.checks import _ch09_tp_hints as h
    from d2lgpu.checks._ch09_tp_problem import ACTIVATIONS, BLOCKS, data, make_blocks

    keep = (
        "Keep fc1's rows for this rank's hidden units (and their biases), fc2's matching "
        "columns, and fc2's bias."
    )
    split = " Split with the world you are given: torch.chunk(torch.arange(h), world)[rank]"
    for rank, world, record, kind, says in (
        (0, 2, {"dtypes": ["bfloat16", "float16"]}, "CheckFailed",
         "rank 0's parameters are bfloat16, float16, not float32 as the blocks are: the shards "
         "are rounded, so the output and gradients are off the unsplit MLP's. Keep each shard "
         "in float32, the weights' own dtype (clone it, no .to(...))"),
        (1, 2, {"shared_parts": True}, "CheckFailed",
         "rank 1's ParallelMLPs of two blocks share Parameters (the same storage): something "
         "kept by the class or a global (a cache keyed by the shapes) hands a second block of "
         "the same shapes the first block's shards. Clone each block's own weights in "
         "__init__, in every instance"),
        (0, 2, {"held": 572, "views": True}, "CheckFailed",
         "rank 0 of 2's parameters hold 572 bytes of storage; its shards are 568 (the whole "
         f"MLPs: 1088). {keep} A slice such as weight[rows] or weight[:, cols] is a view: the "
         "whole weight's storage stays alive. Clone it (weight[a:b].clone()). (.contiguous() "
         "copies nothing where the slice is already contiguous, as fc1's rows are.)"),
        (1, 2, {"held": 572}, "CheckFailed",
         "rank 1 of 2's parameters hold 572 bytes of storage; its shards are 568 (the whole "
         f"MLPs: 1088). {keep}"),
        (0, 3, {"held": 468}, "CheckFailed",  # not a whole number of hidden units
         "rank 0 of 3's parameters hold 468 bytes of storage; its shards are 464 (the whole "
         f"MLPs: 1088). {keep}"),
        (0, 3, {"held": 568}, "SplitDiffers",
         "rank 0 of 3's parameters hold 568 bytes of storage; its shards are 464 (the whole "
         f"MLPs: 1088). {keep} That is 5 hidden units per block, where "
         "torch.chunk(torch.arange(10), 3)[0] gives it 4 (4, 4, 2). Is the number of ranks, 2, "
         f"written in somewhere?{split}"),
        (2, 3, {"held": 360}, "SplitDiffers",
         "rank 2 of 3's parameters hold 360 bytes of storage; its shards are 256 (the whole "
         f"MLPs: 1088). {keep} That is 3 hidden units per block, where "
         "torch.chunk(torch.arange(10), 3)[2] gives it 2 (4, 4, 2). A split of your own "
         f"(torch.tensor_split, h // world steps, every world-th unit)?{split}"),
        (0, 2, {"held": 568, "kept": {"shared": ["0.2.bias", "1.2.bias"]}}, "CheckFailed",
         "rank 0's parameters share storage with the unsplit MLP's 0.2.bias, 1.2.bias: "
         "nn.Parameter(t.detach()) without .clone() is the same memory, so a step on the shard "
         "changes the unsplit MLP too. Copy every shard, fc2's bias included: "
         "fc2.bias.detach().clone()"),
        (1, 2, {"held": 568, "kept": {"elsewhere": ["0.0.weight"]}}, "CheckFailed",
         "rank 1 keeps the unsplit MLP's 0.0.weight alive after ParallelMLP(...) returned, "
         "though its parameters hold only its shards: something else in it refers to the MLP "
         "(an attribute, a list, or a closure such as `lambda t: mlp[1](t)`), so the rank holds "
         "the whole MLP's memory. Keep the cloned shards and the activation module itself "
         "(self.act = mlp[1]), nothing else of mlp"),
        (0, 2, {"held": 480, "buffers": ["b1 of block 0", "b2 of block 0", "b1 of block 1"]},
         "CheckFailed",
         "rank 0 of 2's parameters hold 480 bytes, its shards 568: it keeps b1 of block 0, b2 of "
         "block 0 as buffers (register_buffer), which module.parameters() does not list, so an "
         "optimizer never updates them. Make every shard, the biases included, an nn.Parameter"),
    ):  # fmt: skip
        got = h.memory_hint(rank, world, record)
        assert (type(got).__name__, got.hint) == (kind, says), record
    assert h.memory_hint(1, 2, {"held": 568, "kept": {}}) is None
    assert h.memory_hint(1, 2, {"held": 568, "kept": {}, "buffers": ["mask of block 0"]}) is None

    trained = (
        "every shard is trained, fc2's bias (the same on every rank) too. Keep nn.Parameter's "
        "default requires_grad=True"
    )
    assert h.without_grad_hint(0, [("fc1.weight", False)]) == (
        "rank 0: fc1.weight has requires_grad=False, so it gets no gradient and the SGD step "
        f"leaves it as it was: {trained}"
    )
    assert h.without_grad_hint(1, [("fc1.weight", False), ("fc2.bias", False), ("b", True)]) == (
        "rank 1: fc1.weight, fc2.bias have requires_grad=False, so they get no gradient and the "
        f"SGD step leaves them as they were: {trained}"
    )
    assert h.without_grad_hint(1, [("fc1.weight", True), ("fc2.bias", True)]) == (
        "rank 1: 2 of your parameters got no gradient (fc1.weight, fc2.bias): they are not in "
        "the output's graph on this rank. Does forward use them on every rank (fc2's bias added "
        "once, after the sum, by every rank)? Else autograd does not see through "
        "dist.all_reduce (nor through anything under no_grad): wrap each all-reduce in a "
        "torch.autograd.Function whose backward says what the gradient is"
    )

    def call(shape, nbytes):
        return SimpleNamespace(shape=shape, nbytes=nbytes)

    own = " All-reduce the shares in their own dtype, float32"
    assert h.wire_hint(0, [call((8, 16), 512), call((0,), 0)], "forward") is None  # empty: skip
    assert h.wire_hint(0, [call((8, 16), 512), call((8, 16), 1024)], "forward") == (
        "rank 0's all-reduce in forward sent a tensor of shape (8, 16) in 1024 bytes, 8 bytes "
        "an element, not float32's 4: an upcast (float64) sends 2 times the bytes, for every "
        "block at every step. float32's sum is what the unsplit MLP computes too." + own
    )
    assert h.wire_hint(1, [call((8, 16), 256)], "backward") == (
        "rank 1's all-reduce in backward sent a tensor of shape (8, 16) in 256 bytes, 2 bytes "
        "an element, not float32's 4: a cast to float16 or bfloat16 rounds the sum, so the "
        "output is off the unsplit MLP's." + own
    )
    assert h.other_rank_hint(2, 3) == (
        "ParallelMLP(mlp, 0, 3) built on rank 2 does not hold rank 0's shards (its hidden units "
        "torch.chunk(torch.arange(h), 3)[0]): take the rank and the world from the arguments, "
        "not from dist.get_rank() or dist.get_world_size() (a process may build another rank's "
        "share, to check or save it)"
    )
    assert h.other_rank_hint(0, 2, "split") == (
        "ParallelMLP(mlp, 1, 2) built on rank 0 does not hold rank 1's shards (its hidden units "
        "torch.chunk(torch.arange(h), 2)[1]), nor rank 0's: its hidden units are a split of your "
        "own (every world-th unit, rank::world, or other bounds). The output is right with any "
        "split, but the exercise gives rank r torch.chunk's block of units, "
        "torch.chunk(torch.arange(h), world)[r], so that any process builds the same shards"
    )

    x, _ = data()

    def run(blocks):
        out = x
        with torch.no_grad():
            for b in blocks:
                out = b(out)
        return out

    ref = run(make_blocks())
    thrice = make_blocks()
    with torch.no_grad():
        for b in thrice:
            b[2].bias *= 3
    for rank, world, out, says in (
        (1, 3, run(thrice), "rank 1's output has fc2's bias 3 times: each rank added it before "
         "the all-reduce summed them. Add it once, after the sum"),
        (0, 2, run(make_blocks(activations=[ACTIVATIONS[1]] * BLOCKS)),
         "rank 0's output is that of blocks that all use LeakyReLU(negative_slope=0.2), but the "
         "blocks' activations differ (GELU(approximate='none'), LeakyReLU(negative_slope=0.2)): "
         "use the mlp's own, mlp[1], not one of your choice"),
        (0, 2, run(make_blocks(activations=[type(a()) for a in ACTIVATIONS])),
         "rank 0's output is that of activations made anew with their default arguments "
         "(LeakyReLU(negative_slope=0.01) where the mlp has LeakyReLU(negative_slope=0.2)): use "
         "the mlp's own module, mlp[1], not type(mlp[1])()"),
        (0, 2, ref + 0.5, "rank 0's output differs from the unsplit MLPs' by up to 0.5: does "
         "each rank keep fc1's rows and fc2's columns for the same hidden units "
         "(torch.chunk(..., world)[rank] for both)?"),
    ):  # fmt: skip
        assert h.wrong_output_hint(rank, world, out, ref, tp.TOLERANCE) == says


# --- round 28: the caller's mlp left as given, the shards' width, the old module hook ----------


class ShrinksCallersLinears(Megatron):
    """Right shards, but cut into the caller's own Linear modules: the mlp given is changed."""

    def __init__(self, mlp, rank, world):
        super().__init__(mlp, rank, world)
        fc1, _, fc2 = mlp
        fc1.weight, fc1.bias, fc2.weight = self.w1, self.b1, self.w2


class PadsToFullWidth(Megatron):
    """Right values, but the shards scattered into zero-filled tensors of the whole width."""

    def __init__(self, mlp, rank, world):
        super().__init__(mlp, rank, world)
        self.register_buffer("mine", rows_of(mlp[0], rank, world))
        self.hidden = mlp[0].out_features

    def forward(self, x):
        h_mine = self.act(F.linear(Copy.apply(x), self.w1, self.b1))
        h = h_mine.new_zeros(*h_mine.shape[:-1], self.hidden).index_copy(-1, self.mine, h_mine)
        w2 = self.w2.new_zeros(self.w2.shape[0], self.hidden).index_copy(1, self.mine, self.w2)
        return Reduce.apply(F.linear(h, w2)) + self.b2


def _sum_first_grad_input(module, grad_input, grad_output):
    summed = grad_input[0].clone()
    dist.all_reduce(summed)
    return (summed, *grad_input[1:])


class LegacyModuleHook(Megatron):
    """x's gradient meant to be summed by nn.Module.register_backward_hook, the old kind."""

    def __init__(self, mlp, rank, world):
        super().__init__(mlp, rank, world)
        self.register_backward_hook(_sum_first_grad_input)

    def forward(self, x):
        h = self.act(F.linear(x, self.w1, self.b1))
        return Reduce.apply(F.linear(h, self.w2)) + self.b2


def test_round_28_a_changed_mlp_is_named_before_anything_reads_it():
    result = assert_fails(ShrinksCallersLinears)
    assert result.hint == (
        "ParallelMLP(mlp, 0, 2) changed the caller's mlp, the unsplit MLP it was given: "
        "mlp[0].weight is now of shape (5, 6), was (10, 6); mlp[0].bias is now of shape (5,), "
        "was (10,); mlp[2].weight is now of shape (6, 5), was (6, 10). The caller builds every "
        "rank's ParallelMLP from it (another rank's too, to check or save it) and compares with "
        "its output, so it must stay as it was. Keep new nn.Parameter shards, cloned from its "
        "weights, on self (nn.Parameter(fc1.weight.detach()[rows].clone())), not assigned into "
        "mlp's own modules (copy.deepcopy(mlp) first, if you want Linear modules to cut down)"
    )


def test_round_28_what_changed_in_the_mlp_is_said_for_each_kind_of_change():
    from d2lgpu.checks._ch09_tp_given import as_given, changed_hint
    from d2lgpu.checks._ch09_tp_problem import make_blocks

    def changes(change):
        mlp = make_blocks()[0]
        given = as_given(mlp)
        change(mlp)
        hint = changed_hint(mlp, given, 1, 2)
        return hint and hint.split(": ", 1)[1].split(". The caller builds")[0]

    def new_parameter(mlp):
        mlp[0].bias = nn.Parameter(mlp[0].bias.detach().clone())

    def zeroed(mlp):
        with torch.no_grad():
            mlp[2].weight.zero_()

    def replaced(mlp):
        mlp[1] = nn.ReLU()

    def grown(mlp):
        mlp[2].extra = nn.Parameter(torch.zeros(1))

    def all_cut(mlp):
        for i in (0, 2):
            mlp[i].weight = nn.Parameter(mlp[i].weight.detach()[:1].clone())
            mlp[i].bias = nn.Parameter(mlp[i].bias.detach()[:1].clone())

    assert changes(lambda mlp: None) is None
    assert changes(new_parameter) == "mlp[0].bias is a new Parameter"
    assert changes(zeroed) == "mlp[2].weight's values were changed in place"
    assert changes(replaced) == "mlp[1] (GELU) was replaced or removed"
    assert changes(grown) == "mlp[2].extra was added"
    assert changes(all_cut) == (
        "mlp[0].weight is now of shape (1, 6), was (10, 6); mlp[0].bias is now of shape (1,), "
        "was (10,); mlp[2].weight is now of shape (1, 10), was (6, 10) (and 1 more)"
    )


def test_round_28_shards_padded_to_the_whole_hidden_width_are_named_as_cost():
    result = assert_fails(PadsToFullWidth)
    assert result.hint == (
        "rank 0's forward kept tensors of the whole hidden width for backward (shapes (5, 10), "
        "(10, 6)): 10 hidden units, where the rank keeps 5. Its shards padded back to the "
        "unsplit shapes with zeros (new_zeros(..., h).index_copy(...), F.pad) give the right "
        "values, but every rank then does the whole fc2 product and keeps a whole hidden "
        "activation: the work and the activations no longer shrink as 1 / world. Multiply by "
        "the shards as they are: this rank's hidden activation is 5 units wide, and its "
        "product with fc2's matching columns is its share of the output"
    )
    from d2lgpu.checks._ch09_tp_hints import width_hint

    assert width_hint(0, 1, [(5, 10)]) is None  # one rank keeps every unit
    assert width_hint(2, 3, [(5, 2), (5, 6)]) is None


def test_round_28_the_old_module_backward_hook_is_named_with_its_fix():
    result = assert_fails(LegacyModuleHook)
    assert result.hint == (
        "rank 0's gradient of the input differs from the unsplit model's: in backward, sum the "
        "column-parallel layer's input gradient over the ranks, once. Your ParallelMLP "
        "registers a module hook with register_backward_hook, the old kind: its grad_input "
        "holds the gradients of the inputs of forward's last operation (such as the bias add), "
        "not x's. Use register_full_backward_hook, whose grad_input is x's gradient, or a hook "
        "on a view of x made in forward (x = x.view_as(x); x.register_hook(...))"
    )


def test_the_unsplit_parameters_still_alive_are_named_shared_or_kept_elsewhere_once_each():
    from d2lgpu.checks._ch09_tp_given import kept_alive, whole_storages
    from d2lgpu.checks._ch09_tp_problem import make_blocks

    blocks = make_blocks()
    refs = whole_storages(blocks)
    names = ["fc1's weight", "fc1's bias", "fc2's weight", "fc2's bias"]
    assert [name for name, _, _ in refs] == names * len(blocks)
    assert [ptr for _, _, ptr in refs] == [p.data_ptr() for b in blocks for p in b.parameters()]
    shard = nn.Parameter(blocks[0][0].weight.detach()[5:])  # a view: the whole weight lives on
    others = [b[2].weight.detach() for b in blocks]  # kept on the side, one per block
    storage = shard.untyped_storage()
    del blocks
    kept = kept_alive(refs, {(storage.data_ptr(), storage.nbytes())})
    assert kept == {"shared": ["fc1's weight"], "elsewhere": ["fc2's weight"]}
    del shard, others, storage
    assert kept_alive(refs, set()) == {"shared": [], "elsewhere": []}


class SeedsInForward(Megatron):
    def forward(self, x):
        torch.manual_seed(0)  # "the same dropout on every rank"
        return super().forward(x)


class SeedsUndone(Megatron):
    def __init__(self, mlp, rank, world):
        with torch.random.fork_rng():  # a reseed of its own, the caller's state put back
            torch.manual_seed(rank)
            super().__init__(mlp, rank, world)


def test_a_parallel_mlp_that_leaves_the_generator_reseeded_is_named_and_one_undone_passes():
    result = check("09.tensor_parallel", SeedsInForward, quiet=True)
    assert result.status == "failed"
    assert result.hint.startswith(
        "your ParallelMLP called torch.manual_seed() and left torch's global random generator "
        "reseeded"
    ), result.hint
    state = torch.get_rng_state()
    try:
        for seed in (0, 1):  # the caller's seed a rank's number (the watches' marks are not)
            torch.manual_seed(seed)
            assert check("09.tensor_parallel", SeedsUndone, quiet=True).ok, seed
    finally:
        torch.set_rng_state(state)


def test_the_changed_mlp_hint_lists_three_changes_and_counts_the_rest():
    from d2lgpu.checks._ch09_tp_given import as_given, changed_hint
    from d2lgpu.checks._ch09_tp_problem import make_blocks

    mlp = make_blocks()[0]
    given = as_given(mlp)
    mlp[0].bias = None  # removed
    mlp[2].extra = nn.Parameter(torch.zeros(1))
    mlp[1] = nn.ReLU()
    assert changed_hint(mlp, given, 1, 2) == (
        "ParallelMLP(mlp, 1, 2) changed the caller's mlp, the unsplit MLP it was given: "
        "mlp[1] (GELU) was replaced or removed; mlp[0].bias was removed; mlp[2].extra was "
        "added. The caller builds every rank's ParallelMLP from it (another rank's too, to "
        "check or save it) and compares with its output, so it must stay as it was. Keep new "
        "nn.Parameter shards, cloned from its weights, on self "
        "(nn.Parameter(fc1.weight.detach()[rows].clone())), not assigned into mlp's own "
        "modules (copy.deepcopy(mlp) first, if you want Linear modules to cut down)"
    )
    with torch.no_grad():
        mlp[2].weight.zero_()
    assert "mlp[2].weight's values were changed in place (and 1 more). The caller" in (
        changed_hint(mlp, given, 1, 2)
    )


class _Cycle:
    pass


def test_an_unsplit_parameter_held_only_by_a_cycle_is_not_counted_as_kept():
    from d2lgpu.checks._ch09_tp_given import kept_alive, whole_storages
    from d2lgpu.checks._ch09_tp_problem import make_blocks

    blocks = make_blocks()
    refs = whole_storages(blocks)
    cycle = _Cycle()
    cycle.me, cycle.weight = cycle, blocks[0][0].weight  # freed only by a garbage collection
    del blocks, cycle
    assert kept_alive(refs, set()) == {"shared": [], "elsewhere": []}
