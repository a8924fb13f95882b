"""Chapter 10's hand-built DDP checkers: right answers in several styles pass, realistic
wrong ones fail with a hint that names the mistake. Each check forks gloo ranks (2, and 4
for 10.shard_optimizer): a few seconds each."""

import pytest
import torch
import torch.distributed as dist
from grading_helpers import assert_fails, assert_passes

from d2lgpu.checks._util import CheckFailed
from d2lgpu.checks.ch10_ddp_by_hand import bucket_numels
from d2lgpu.grading import check


def test_bucket_numels_follows_both_rules():
    sizes, numels = [12, 192, 64, 1024, 64, 384], [3, 48, 16, 256, 16, 96]
    assert bucket_numels(sizes, numels, 512) == [323, 112]  # close once it reaches the cap
    assert bucket_numels(sizes, numels, 512, close_at_cap=False) == [67, 256, 112]
    assert bucket_numels(sizes, numels, 1) == numels
    assert bucket_numels(sizes, numels, 10**9) == [sum(numels)]


def test_a_cap_equal_to_a_running_total_tells_the_rules_apart():
    # 268 = 12 + 192 + 64: >=, > (a cap one byte higher), closing before the cap, and a count
    # in elements each give other buckets there; at 512 elements and > differ
    from d2lgpu.checks.ch10_ddp_by_hand import BUCKET_CAPS

    sizes, numels = [12, 192, 64, 1024, 64, 384], [3, 48, 16, 256, 16, 96]
    assert 268 in BUCKET_CAPS and 512 in BUCKET_CAPS
    assert BUCKET_CAPS.index(512) < BUCKET_CAPS.index(268)
    rules = [
        bucket_numels(sizes, numels, 268),
        bucket_numels(sizes, numels, 269),
        bucket_numels(sizes, numels, 268, close_at_cap=False),
    ]
    assert rules == [[67, 256, 112], [323, 112], [67, 256, 16, 96]]
    assert bucket_numels(numels, numels, 512) != bucket_numels(sizes, numels, 513)


# --- 10.overlap_ddp ------------------------------------------------------------------------


class Bucketed:
    """The worked answer's shape: static buckets in reverse order, flat, launched when full."""

    reverse = True
    divide = True
    wait_in_hook = False
    async_op = True
    flush_last = True
    launch_in_hook = True
    reset = True
    resend_in_finish = False
    wait = True

    def __init__(self, model, bucket_bytes):
        self.world = dist.get_world_size()
        params = list(model.parameters())
        self.buckets, bucket, size = [], [], 0
        for p in reversed(params) if self.reverse else params:
            bucket.append(p)
            size += p.numel() * p.element_size()
            if size >= bucket_bytes:
                self.buckets.append(bucket)
                bucket, size = [], 0
        if bucket and self.flush_last:
            self.buckets.append(bucket)
        self.bucket_of = {p: i for i, b in enumerate(self.buckets) for p in b}
        self.ready = [0] * len(self.buckets)
        self.pending = []
        for p in self.bucket_of:
            p.register_post_accumulate_grad_hook(self._hook)

    def _launch(self, i):
        grads = [q.grad for q in self.buckets[i]]
        flat = torch.cat([g.reshape(-1) for g in grads])
        if self.divide:
            flat /= self.world
        work = dist.all_reduce(flat, async_op=self.async_op)
        if self.wait_in_hook:
            work.wait()
        self.pending.append((work if self.async_op else None, flat, grads, i))

    def _hook(self, p):
        i = self.bucket_of[p]
        self.ready[i] += 1
        if self.ready[i] == len(self.buckets[i]) and self.launch_in_hook:
            self._launch(i)

    def finish(self):
        if not self.launch_in_hook:
            for i in range(len(self.buckets)):
                self._launch(i)
        if self.resend_in_finish:
            self._launch(self.pending[0][3])
        for work, flat, grads, _ in self.pending:
            if work is not None and self.wait:
                work.wait()
            for g, avg in zip(grads, flat.split([g.numel() for g in grads]), strict=True):
                g.copy_(avg.view_as(g))
        self.pending = []
        if self.reset:
            self.ready = [0] * len(self.buckets)


class NoOverflowAvg:
    """A right answer in another style: a bucket never exceeds the cap, ReduceOp.AVG, views."""

    def __init__(self, model, bucket_bytes):
        self.buckets, bucket, size = [], [], 0
        for p in reversed(list(model.parameters())):
            nbytes = p.numel() * p.element_size()
            if bucket and size + nbytes > bucket_bytes:
                self.buckets.append(bucket)
                bucket, size = [], 0
            bucket.append(p)
            size += nbytes
        self.buckets.append(bucket)
        self.waiting = {i: len(b) for i, b in enumerate(self.buckets)}
        self.where = {id(p): i for i, b in enumerate(self.buckets) for p in b}
        self.handles = []
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self.hook)

    def hook(self, p):
        i = self.where[id(p)]
        self.waiting[i] -= 1
        if self.waiting[i] == 0:
            flat = torch.cat([q.grad.flatten() for q in self.buckets[i]])
            handle = dist.all_reduce(flat, op=dist.ReduceOp.AVG, async_op=True)
            self.handles.append((handle, flat, self.buckets[i]))

    def finish(self):
        for handle, flat, params in self.handles:
            handle.wait()
            offset = 0
            for p in params:
                p.grad.copy_(flat[offset : offset + p.numel()].view_as(p))
                offset += p.numel()
        self.handles.clear()
        self.waiting = {i: len(b) for i, b in enumerate(self.buckets)}


OVERLAP_PASSED = [
    f"{what}: each step every bucket launched from its last gradient's hook, before backward "
    "returned; none waited inside it; every handle waited in finish(); the buckets in reverse "
    "order"
    for what in ("a bucket per parameter", "buckets of 512 bytes", "buckets of 268 bytes")
] + [
    "gradients equal one process on the global batch, on 2 gloo ranks, 3 steps; final "
    "parameters too",
    "on 3 gloo ranks too (512-byte buckets, the model in float64, its layers registered in "
    "another order than forward runs them, a first OverlappedDDP built before over the model "
    "in float32): the average of the ranks' gradients, each bucket launched from its last "
    "gradient's hook",
]


@pytest.mark.parametrize("answer", [Bucketed, NoOverflowAvg])
def test_overlap_ddp_right_answers_pass(answer):
    result = assert_passes("10.overlap_ddp", answer)
    assert result.passed == OVERLAP_PASSED


class ReseedsInFinish(NoOverflowAvg):
    def finish(self):
        torch.manual_seed(0)  # "the same random state on every rank"
        super().finish()


def test_overlap_ddp_that_reseeds_the_global_generator_is_named():
    assert_fails("10.overlap_ddp", ReseedsInFinish, "your OverlappedDDP called torch.manual_seed()")


def test_final_parameters_unlike_one_process_are_named(monkeypatch):
    # right gradients every step, but final parameters that differ: the checker's reference
    # moved, as an answer that changed p.data in finish() would move the ranks' parameters
    from d2lgpu.checks import ch10_ddp_by_hand

    reference = ch10_ddp_by_hand.overlap_reference
    monkeypatch.setattr(ch10_ddp_by_hand, "overlap_reference", lambda: [
        r + 1e-4 * (i == 2) for i, r in enumerate(reference())])  # fmt: skip
    assert_fails(
        "10.overlap_ddp",
        Bucketed,
        "after 3 steps rank 0's 2.weight differs from one process trained on the global batch, "
        "though each step's gradients were right",
    )


def variant(**changes):
    return type("Variant", (Bucketed,), changes)


@pytest.mark.parametrize(
    "answer, hint",
    [
        (variant(wait_in_hook=True), "waiting inside the hook"),
        (variant(async_op=False), "waiting inside the hook"),
        (variant(divide=False), "forgetting to divide"),
        (variant(resend_in_finish=True), "a bucket sent twice"),
        (variant(flush_last=False), "never reduced"),
        (variant(reverse=False), "buckets in forward order"),
        (variant(launch_in_hook=False), "after backward returned"),
        (variant(wait=False), "never waited on"),
        (variant(reset=False), "reset"),
    ],
)
def test_overlap_ddp_mistakes_are_named(answer, hint):
    assert_fails("10.overlap_ddp", answer, hint)


def test_overlap_ddp_stub_and_shape():
    class Stub:
        def __init__(self, model, bucket_bytes):
            raise NotImplementedError("your code here")

    assert check("10.overlap_ddp", Stub, quiet=True).status == "not attempted"
    assert_fails("10.overlap_ddp", None, "the class OverlappedDDP")

    class NoFinish:
        def __init__(self, model, bucket_bytes):
            pass

    assert_fails("10.overlap_ddp", NoFinish, "no method finish()")


# --- 10.shard_optimizer --------------------------------------------------------------------


class Sharded:
    """The worked answer's shape: each parameter to the rank holding the fewest bytes."""

    broadcast = True
    src_owner = True
    shard = True
    keep_state = True
    split = "greedy"
    zero = True

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        rank, world = dist.get_rank(), dist.get_world_size()
        held, self.owner = [0] * world, []
        for i, p in enumerate(self.params):
            if self.split == "greedy":
                r = held.index(min(held))
            else:  # the first half and one more to rank 0
                r = 0 if i <= len(self.params) // 2 else 1 + i % (world - 1)
            self.owner.append(r)
            held[r] += p.numel() * p.element_size()
        self.mine = [p for p, r in zip(self.params, self.owner, strict=True) if r == rank]
        self.cls, self.kwargs = optimizer_cls, kwargs
        self.optimizer = optimizer_cls(self.mine if self.shard else self.params, **kwargs)

    def zero_grad(self):
        if self.zero:
            for p in self.params:
                p.grad = None

    @torch.no_grad()
    def step(self):
        if not self.keep_state:
            self.optimizer = self.cls(self.mine, **self.kwargs)
        self.optimizer.step()
        if self.broadcast:
            for p, r in zip(self.params, self.owner, strict=True):
                dist.broadcast(p, src=r if self.src_owner else 0)


class RoundRobin:
    """Parameter i to rank i % world, then a loop of broadcasts: balanced where the parameters
    are of one size, not on a model of weights and biases."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank, self.world = dist.get_rank(), dist.get_world_size()
        own = self.params[self.rank :: self.world]
        self.optimizer = optimizer_cls(own, **kwargs)

    def zero_grad(self):
        for p in self.params:
            if p.grad is not None:
                p.grad.zero_()

    def step(self):
        self.optimizer.step()
        for i, p in enumerate(self.params):
            dist.broadcast(p.data, src=i % self.world)


SHARD_PASSED = [
    line
    for world, kwargs in (
        (2, "{'lr': 0.01, 'betas': (0.85, 0.99)}"),
        (4, "{'lr': 0.02, 'weight_decay': 0.01}"),
        (3, "{'eps': 1e-06, 'betas': (0.8, 0.95)}"),
    )  # fmt: skip
    for line in (
        f"{world} ranks: parameters equal DDP's after each of 3 Adam steps (within 1e-6, "
        f"with {kwargs}), the same on every rank",
        f"{world} ranks: each parameter's Adam state on one rank only, 1/{world} of the "
        f"whole on each{' (within one parameter)' if world == 3 else ''}, after each step "
        "and during it, and no moments of another rank's parameters kept elsewhere, nor of its "
        "own kept twice",
        f"{world} ranks: step() sends each parameter once and reduces nothing",
    )
]


def test_shard_optimizer_right_answers_pass():
    result = assert_passes("10.shard_optimizer", Sharded)
    assert result.passed == [
        *SHARD_PASSED,
        "2 ranks, a model with weights and biases (256 and 16 elements) in float64, one bias "
        "without a gradient at the first step, after a first ShardedOptimizer over other "
        "parameters: parameters equal DDP's after each step "
        "(within 1e-12), each rank's Adam state 1/2 of the whole within the largest "
        "parameter's, each parameter sent once in float64",
    ]


def test_owners_by_index_pass_on_parameters_of_one_size_and_fail_on_two():
    result = check("10.shard_optimizer", RoundRobin, quiet=True)
    assert result.status == "failed" and result.passed == SHARD_PASSED
    assert result.hint == (
        "rank 0 holds 9728 bytes of optimizer state, of 34816 in all over 2 ranks: 1/n is "
        "17,408, within the largest parameter's 4096. Every rank holds 8 parameters, but this "
        "model's are of 2 sizes (16, 256 elements): owners given by index (i % world), by "
        "consecutive shares of the count, or by a load that adds 1 or p.element_size() per "
        "parameter, balance the count, not the bytes "
        "(p.numel() * p.element_size()). Balance the shards by bytes (give each parameter to "
        "the rank holding the fewest bytes so far)"
    )


class LoadsOfTheClass(Sharded):
    """Greedy by bytes, but the loads kept by the class: the second instance starts from the
    first one's."""

    loads: dict = {}

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        rank, world = dist.get_rank(), dist.get_world_size()
        self.owner = []
        for p in self.params:
            r = min(range(world), key=lambda r: self.loads.get(r, 0))
            self.owner.append(r)
            self.loads[r] = self.loads.get(r, 0) + p.numel() * p.element_size()
        mine = [p for p, r in zip(self.params, self.owner, strict=True) if r == rank]
        self.mine, self.cls, self.kwargs = mine, optimizer_cls, kwargs
        self.optimizer = optimizer_cls(mine, **kwargs)


class FlatFloat32(Sharded):
    """One broadcast per owner, of a flat buffer in the default dtype."""

    @torch.no_grad()
    def step(self):
        self.optimizer.step()
        for r in range(dist.get_world_size()):
            share = [p for p, o in zip(self.params, self.owner, strict=True) if o == r]
            flat = torch.zeros(sum(p.numel() for p in share))
            if r == dist.get_rank():
                flat.copy_(torch.cat([p.reshape(-1) for p in share]))
            dist.broadcast(flat, src=r)
            offset = 0
            for p in share:
                p.copy_(flat[offset : offset + p.numel()].view_as(p))
                offset += p.numel()


def test_loads_kept_by_the_class_and_a_buffer_in_float32_are_named_on_the_last_run():
    result = check("10.shard_optimizer", LoadsOfTheClass, quiet=True)
    assert result.passed == SHARD_PASSED, result.passed
    assert result.hint.endswith(
        ". This run built a first ShardedOptimizer (over 3 other parameters: 2 owned by one "
        "rank, 1 by the other), in the same processes, before this one, and building it changed "
        "LoadsOfTheClass.loads: what a class attribute, a module's global or a function's "
        "default argument keeps, not the instance, carries over to the next instance. Keep it "
        "on self"
    ), result.hint
    result = check("10.shard_optimizer", FlatFloat32, quiet=True)
    assert result.passed == SHARD_PASSED, result.passed
    assert result.hint.startswith("parameter 0 after step 0 (2 ranks) differs from DDP with Adam")
    assert (
        "fewer than float64's 8 each: buffers of a narrower dtype (float32, as torch.zeros(n) and "
        "torch.empty(n) make, or bfloat16) round every parameter they carry"
    ) in result.hint


class AveragesParams(Sharded):
    @torch.no_grad()
    def step(self):
        self.optimizer.step()
        for p in self.params:  # "sync the ranks" with an average instead of the owner's value
            dist.all_reduce(p, op=dist.ReduceOp.AVG)


class BroadcastsFirst(Sharded):
    @torch.no_grad()
    def step(self):
        for p, r in zip(self.params, self.owner, strict=True):
            dist.broadcast(p, src=r)
        self.optimizer.step()


def shard_variant(**changes):
    return type("ShardVariant", (Sharded,), changes)


@pytest.mark.parametrize(
    "answer, hint",
    [
        (shard_variant(broadcast=False), "broadcast every parameter"),
        (BroadcastsFirst, "differs from rank 0's"),
        (shard_variant(src_owner=False), "never changed"),
        (shard_variant(shard=False), "every rank holds the whole optimizer state"),
        (shard_variant(keep_state=False), "state (its moments) was lost"),
        (shard_variant(split="skewed"), "1/n is"),
        (shard_variant(zero=False), "differs from DDP with Adam"),
        (AveragesParams, "differs from DDP with Adam"),
    ],
)
def test_shard_optimizer_mistakes_are_named(answer, hint):
    assert_fails("10.shard_optimizer", answer, hint)


def test_shard_optimizer_stub_and_shape():
    def stub(params, optimizer_cls, **kwargs):
        raise NotImplementedError("your code here")

    assert check("10.shard_optimizer", stub, quiet=True).status == "not attempted"
    assert_fails("10.shard_optimizer", "Adam", "the class ShardedOptimizer")

    class NoStep:
        def __init__(self, params, optimizer_cls, **kwargs):
            self.opt = optimizer_cls(list(params), **kwargs)

        def zero_grad(self):
            pass

    assert_fails("10.shard_optimizer", NoStep, "no method step()")


class LaunchesAllInLastHook(Bucketed):
    """Buckets right, but every one launched from the last gradient's hook: no overlap."""

    def _hook(self, p):
        self.ready[0] += 1
        if self.ready[0] == sum(len(b) for b in self.buckets):
            for i in range(len(self.buckets)):
                self._launch(i)

    def finish(self):
        super().finish()
        self.ready = [0] * len(self.buckets)


def test_overlap_ddp_a_bucket_held_back_until_backward_ends_is_named():
    # launched inside backward, right sizes and order, right gradients: only the order of the
    # hooks' calls and the launches shows that the first bucket waited for the last gradient
    assert_fails("10.overlap_ddp", LaunchesAllInLastHook, "bucket 0", "was launched only after")


def test_a_broadcast_on_the_owner_only_is_reported_not_hung(monkeypatch):
    from d2lgpu.checks import _ranks

    monkeypatch.setattr(_ranks, "COLLECTIVE_TIMEOUT_S", 3.0)

    class OwnerOnly(Sharded):
        @torch.no_grad()
        def step(self):
            self.optimizer.step()
            for p, r in zip(self.params, self.owner, strict=True):
                if r == dist.get_rank():  # "only the owner has something to send"
                    dist.broadcast(p, src=r)

    assert_fails("10.shard_optimizer", OwnerOnly, "same collectives")


class GradientHooks(Bucketed):
    """register_hook instead of register_post_accumulate_grad_hook: p.grad is not set yet."""

    def __init__(self, model, bucket_bytes):
        self.params = list(model.parameters())
        self.pending = []
        for p in self.params:
            p.register_hook(lambda grad: grad)

    def finish(self):
        pass


class AdamByName(Sharded):
    def __init__(self, params, optimizer_cls, **kwargs):
        super().__init__(params, torch.optim.Adam, **kwargs)


def test_hooks_of_the_wrong_kind_and_an_optimizer_not_from_optimizer_cls_are_named():
    assert_fails("10.overlap_ddp", GradientHooks, "register_post_accumulate_grad_hook")
    assert_fails("10.shard_optimizer", AdamByName, "optimizer_cls(its_own_params")


# --- 10.shard_optimizer: the keyword arguments differ per world size, none at Adam's defaults


class LrOnly(Sharded):
    def __init__(self, params, optimizer_cls, **kwargs):
        super().__init__(params, optimizer_cls, lr=kwargs["lr"])  # "the only one that matters"


class KwargsDropped(Sharded):
    def __init__(self, params, optimizer_cls, **kwargs):
        super().__init__(params, optimizer_cls)  # Adam's defaults


class KwargsWrittenIn(Sharded):
    def __init__(self, params, optimizer_cls, **kwargs):
        super().__init__(params, optimizer_cls, lr=0.01, betas=(0.85, 0.99))  # the first case's


@pytest.mark.parametrize(
    "answer, hints",
    [
        (LrOnly, ["2 ranks", "Adam with lr alone", "dropped"]),
        (KwargsDropped, ["Adam's defaults", "**kwargs"]),
        (KwargsWrittenIn, ["4 ranks", "another case: values written in"]),
    ],
)
def test_shard_optimizer_keyword_arguments_not_passed_on_are_named(answer, hints):
    assert_fails("10.shard_optimizer", answer, *hints)


class ShardedByNumpy:
    """Another style: owners from numpy (largest first, each to the argmin of the loads), the
    optimizer made by a functools.partial, a print of this rank's share. (Owners from
    ``np.array_split`` of the indexes, consecutive shares of the count, fail the last case.)"""

    def __init__(self, params, optimizer_cls, **kwargs):
        import functools

        import numpy as np

        self.params = list(params)
        rank, world = dist.get_rank(), dist.get_world_size()
        sizes = np.array([p.numel() * p.element_size() for p in self.params])
        loads, self.owner = np.zeros(world), [0] * len(self.params)
        for i in np.argsort(-sizes, kind="stable"):
            self.owner[i] = int(loads.argmin())
            loads[self.owner[i]] += sizes[i]
        mine = [p for p, r in zip(self.params, self.owner, strict=True) if r == rank]
        make = functools.partial(optimizer_cls, **kwargs)
        self.optimizer = make(mine)
        print(f"rank {rank}: {len(mine)} of {len(self.params)} parameters")

    def zero_grad(self, set_to_none=True):
        for p in self.params:
            p.grad = None

    def step(self):
        self.optimizer.step()
        with torch.no_grad():
            for p, r in zip(self.params, self.owner, strict=True):
                dist.broadcast(p.data, src=r)


def sharded_factory(params, optimizer_cls, **kwargs):
    """A function, not a class, that returns a right answer."""
    return Sharded(params, optimizer_cls, **kwargs)


@pytest.mark.parametrize("answer", [ShardedByNumpy, sharded_factory], ids=["numpy", "factory"])
def test_shard_optimizer_other_styles_pass(answer):
    assert_passes("10.shard_optimizer", answer)


# --- 10.overlap_ddp: a third run on 3 ranks sees a world size written in


class HalvesBuckets(Bucketed):
    def __init__(self, model, bucket_bytes):
        super().__init__(model, bucket_bytes)
        self.world = 2  # "two GPUs", as on the machine it was written on


class MulHalfInFinish(Bucketed):
    divide = False

    def finish(self):
        super().finish()
        for p in self.bucket_of:
            p.grad.mul_(0.5)  # the average of two ranks, written in


@pytest.mark.parametrize("answer", [HalvesBuckets, MulHalfInFinish])
def test_overlap_ddp_a_world_size_written_in_is_named(answer):
    assert_fails("10.overlap_ddp", answer, "(3 ranks) is divided by 2, not by the world size")


class BucketedWithPrint(Bucketed):
    """Another style, made by a factory function: a print in finish()."""

    def finish(self):
        super().finish()
        print(f"rank {dist.get_rank()}: {len(self.buckets)} buckets averaged")


def overlapped_factory(model, bucket_bytes):
    return BucketedWithPrint(model, bucket_bytes)


@pytest.mark.parametrize(
    "answer", [overlapped_factory, NoOverflowAvg], ids=["factory_print", "avg_op"]
)
def test_overlap_ddp_other_styles_pass_on_three_ranks_too(answer):
    result = assert_passes("10.overlap_ddp", answer)
    assert any("on 3 gloo ranks too" in p for p in result.passed)


def test_shares_of_eight_parameters_over_three_ranks_are_held_within_one_parameter():
    from d2lgpu.checks._ch10_zero_rules import compare_state

    numels = [256] * 8
    one = 2 * 4 * 256  # Adam's two moments of one parameter, float32

    def records(*counts):
        first = iter(range(8))
        return [{"optimizers": 1, "state": {next(first): one for _ in range(n)}} for n in counts]

    compare_state(records(3, 3, 2), 3, numels)
    compare_state(records(2, 3, 3), 3, numels)
    for counts in ((4, 2, 2), (4, 4, 0)):
        with pytest.raises(CheckFailed, match="1/n is 5,461, so each rank holds the bytes of 2 or"):
            compare_state(records(*counts), 3, numels)
    with pytest.raises(CheckFailed, match="1/n is 8192"):
        compare_state(records(5, 3), 2, numels)


def factory_for_float32_only(params, optimizer_cls, **kwargs):
    """A factory that gives up (None) on a model of another dtype: only the last run's."""
    params = list(params)
    if params[0].dtype != torch.float32:
        return None
    return Sharded(params, optimizer_cls, **kwargs)


def test_an_answer_that_builds_nothing_for_the_uneven_model_alone_is_named():
    assert_fails(
        "10.shard_optimizer",
        factory_for_float32_only,
        "calling your answer gave None, not an optimizer: pass the class ShardedOptimizer",
    )


class SizesOfTheClass(Bucketed):
    """Each parameter's bytes, remembered by the class at the first instance that saw it:
    right while every model is in float32."""

    sizes: dict = {}

    def __init__(self, model, bucket_bytes):
        for i, p in enumerate(model.parameters()):
            self.sizes.setdefault(i, p.numel() * p.element_size())
        self.world = dist.get_world_size()
        params = list(model.parameters())
        self.buckets, bucket, size = [], [], 0
        for i in reversed(range(len(params))):
            bucket.append(params[i])
            size += self.sizes[i]
            if size >= bucket_bytes:
                self.buckets.append(bucket)
                bucket, size = [], 0
        if bucket:
            self.buckets.append(bucket)
        self.bucket_of = {p: i for i, b in enumerate(self.buckets) for p in b}
        self.ready = [0] * len(self.buckets)
        self.pending = []
        for p in self.bucket_of:
            p.register_post_accumulate_grad_hook(self._hook)


def test_state_a_first_overlapped_ddp_left_in_its_class_is_named_on_the_last_run():
    result = check("10.overlap_ddp", SizesOfTheClass, quiet=True)
    assert result.status == "failed" and len(result.passed) == 4, result  # 2 ranks' runs: right
    assert result.hint.startswith(
        "with bucket_bytes=512 (step 0) your buckets hold [24, 133] elements, as if each took "
        "4 bytes, float32's; this model's take 8."
    ), result.hint
    assert result.hint.endswith(
        ". This run built a first OverlappedDDP (over the model in float32), in the same "
        "processes, before this one, and building it changed SizesOfTheClass.sizes: what a "
        "class attribute, a module's global or a function's default argument keeps, not the "
        "instance, carries over to the next instance. Keep it on self"
    ), result.hint


def test_overlap_ddps_final_parameters_are_held_to_both_tolerances(monkeypatch):
    from d2lgpu.checks import ch10_ddp_by_hand as by_hand

    reference = [torch.ones(2), torch.zeros(2)]
    final = [reference[0] * (1 + 5e-5), reference[1] + 5e-7]  # within 1e-4 and 1e-6
    runs = []

    def run(answer, cap, world, *args, **kwargs):
        runs.append(cap)
        return [{"names": ["w", "b"], "final": final}] * world

    monkeypatch.setattr(by_hand, "overlap_reference", lambda: reference)
    monkeypatch.setattr(by_hand, "_overlap_run", run)
    passed: list = []
    by_hand.check_overlap_ddp(Bucketed, passed)
    assert len(runs) == len(by_hand.BUCKET_CAPS) + 1 and len(passed) == len(runs) + 1
    for wrong in ([reference[0] * (1 + 5e-4), reference[1]], [reference[0], reference[1] + 5e-6]):
        final[:] = wrong
        with pytest.raises(CheckFailed) as failed:
            by_hand.check_overlap_ddp(Bucketed, [])
        assert str(failed.value).startswith("after 3 steps rank 0's "), failed.value
