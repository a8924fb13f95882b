"""What a rank of 10.overlap_ddp and 10.shard_optimizer runs, run here in pytest's own process
under PyTorch's fake process group (its collectives move nothing), so that each job's record
can be read line by line: the hooks' order, the launches and waits, the reference gradients,
each rank's optimizers and what step() sent; and the rules a rank applies itself (an empty
share, PyTorch's own ZeRO). A world of 1 needs no data moved, so its record passes the
parent's rules as a real run does. Each test takes well under a second after the first."""

import functools
import tempfile

import pytest
import torch
import torch.distributed as dist
import torch.nn.functional as F
from test_checks_ch10_ddp_by_hand import Bucketed, Sharded, shard_variant, variant

from d2lgpu._fake_dist import fake_process_group
from d2lgpu.checks import _ranks
from d2lgpu.checks._ch10_buckets import overlap_net
from d2lgpu.checks._ch10_by_hand import batch, share
from d2lgpu.checks._ch10_overlap import CapJob, overlap_reference
from d2lgpu.checks._ch10_overlap_rules import step_logs
from d2lgpu.checks._ch10_zero import ADAM_KWARGS, zero_job, zero_net
from d2lgpu.checks._ch10_zero_rules import (
    compare_calls,
    compare_held,
    compare_state,
    compare_zero_grad,
)
from d2lgpu.checks._util import CheckFailed
from d2lgpu.checks.ch10_ddp_by_hand import _overlap_checks

PARAM = 16 * 16 * 4


@pytest.fixture(autouse=True)
def _one_thread(one_thread):
    """torch on one thread: a thread pool in pytest's process hangs a mutation run's forks."""


def run(job, answer, world, rank=0):
    """``job`` as rank ``rank`` of ``world`` runs it, with its collectives watched, here."""
    with fake_process_group(world, rank), tempfile.TemporaryDirectory() as logs:
        return _ranks._watched_job(job, answer, logs, rank, world)


def test_an_overlap_rank_records_hooks_launches_waits_and_gradients():
    record = run(CapJob(512), Bucketed, 1)
    assert record["setup"] == {"type": "Bucketed", "finish": True, "hooks": 2, "unhooked": []}
    assert record["names"] == ["0.weight", "0.bias", "2.weight", "2.bias", "4.weight", "4.bias"]
    assert record["numels"] == [96, 16, 256, 16, 48, 3]
    logs = step_logs([s["log"] for s in record["steps"]])
    assert len(logs) == 3
    for step, log in enumerate(logs):
        assert log == [
            ("ready", "4.bias"),
            ("ready", "4.weight"),
            ("ready", "2.bias"),
            ("ready", "2.weight"),
            ("launch", 323, True, True),
            ("ready", "0.bias"),
            ("ready", "0.weight"),
            ("launch", 112, True, True),
            ("backward returned",),
            ("wait", 0, False, step),
            ("wait", 1, False, step),
            ("finish returned",),
        ]
    for got, want in zip(record["final"], overlap_reference(), strict=True):
        assert torch.allclose(got, want, rtol=1e-5, atol=1e-7)
    _overlap_checks([record], 1, 512)  # one rank: the parent's rules pass


def test_an_overlap_rank_runs_a_float64_model_and_records_its_itemsize():
    record = run(CapJob(512, torch.float64), Bucketed, 1)
    assert record["itemsize"] == 8
    assert all(g.dtype == torch.float64 for g in record["steps"][0]["got"])
    _overlap_checks([record], 1, 512)  # buckets of [67, 256, 112] elements, as float64 gives


def test_an_overlap_rank_records_its_own_gradients_and_the_average():
    record = run(CapJob(1), Bucketed, 2, 1)  # the fake all-reduce moves nothing
    model = overlap_net()
    x, y = batch(0, 6)
    grads = []
    for r in range(2):
        model.zero_grad()
        F.cross_entropy(model(x[share(r, 2)]), y[share(r, 2)]).backward()
        grads.append([p.grad.clone() for p in model.parameters()])
    first = record["steps"][0]
    for got, whole, local, g0, g1 in zip(first["got"], first["whole"], first["local"], *grads,
                                         strict=True):  # fmt: skip
        assert torch.allclose(whole, (g0 + g1) / 2, atol=1e-7)
        assert torch.allclose(local, g1, atol=1e-7)
        assert torch.allclose(got, g1 / 2, atol=1e-7)  # this rank's own, divided by 2
    with pytest.raises(CheckFailed, match="own gradient divided by the world size"):
        _overlap_checks([record], 2, 1)


def test_what_the_answer_built_is_recorded_and_stops_the_rank():
    class NoFinish:
        def __init__(self, model, bucket_bytes):
            pass

    names = [n for n, _ in overlap_net().named_parameters()]
    assert run(CapJob(512), NoFinish, 1) == {
        "setup": {"type": "NoFinish", "finish": False, "hooks": 1, "unhooked": names}
    }

    class NoHooks(NoFinish):
        def finish(self):
            pass

    names = [n for n, _ in overlap_net().named_parameters()]
    assert run(CapJob(512), NoHooks, 1) == {
        "setup": {"type": "NoHooks", "finish": True, "hooks": 1, "unhooked": names}
    }


@pytest.mark.parametrize(
    "answer, hint",
    [
        (variant(wait_in_hook=True), "waiting inside the hook: a handle was waited on"),
        (variant(async_op=False), "an all_reduce without async_op=True blocked"),
        (variant(launch_in_hook=False), "every all-reduce was launched after backward returned"),
        (variant(reset=False), "no dist.all_reduce in step 1, though step 0 had some"),
    ],
)
def test_an_overlap_mistake_in_one_process_is_named_from_its_record(answer, hint):
    with pytest.raises(CheckFailed, match=hint):
        _overlap_checks([run(CapJob(512), answer, 1)], 1, 512)


class LaunchesEarly(Bucketed):
    """Launches a bucket of two or more parameters one gradient early."""

    def _hook(self, p):
        i = self.bucket_of[p]
        self.ready[i] += 1
        if self.ready[i] == max(len(self.buckets[i]) - 1, 1):
            self._launch(i)


def test_a_bucket_launched_before_its_last_gradient_is_named_not_called_unused():
    with pytest.raises(_ranks.RuleBroken) as info:
        run(CapJob(512), LaunchesEarly, 1)
    hint = str(info.value)
    assert hint.startswith("AttributeError: 'NoneType' object has no attribute 'reshape', ")
    assert "raised during backward (step 0): a hook read p.grad of a parameter whose" in hint
    assert "count the bucket's ready gradients" in hint and "unused" not in hint


class HooksAgain(Bucketed):
    """Registers every hook again in finish(), as a set-up run each step would."""

    def finish(self):
        super().finish()
        for p in self.bucket_of:
            p.register_post_accumulate_grad_hook(self._hook)


def test_hooks_registered_again_in_finish_are_named_after_the_step_that_added_them():
    with pytest.raises(_ranks.RuleBroken) as info:
        run(CapJob(512), HooksAgain, 1)
    assert str(info.value) == (
        "after finish() of step 0 a parameter has 2 hooks of yours, 1 after __init__: the "
        "hooks were registered again (in finish(), or a set-up it calls), so each step adds "
        "one more, and every one runs in each backward. Register each parameter's hook once, "
        "in __init__, and reset only the counts and handles in finish()"
    )


class KeepsFlats(Bucketed):
    """Keeps every step's flat buffers in a list never cleared."""

    def finish(self):
        self.kept = [*getattr(self, "kept", []), *(flat for _, flat, _, _ in self.pending)]
        super().finish()


def test_flat_buffers_kept_from_earlier_steps_are_counted_in_one_process():
    with pytest.raises(_ranks.RuleBroken) as info:
        run(CapJob(512), KeepsFlats, 1)
    assert str(info.value).startswith(
        "after 3 steps, 4 tensor(s) all-reduced in earlier steps are still alive: something "
        "keeps every step's flat buffers (a list never cleared)"
    )
    run(CapJob(512), Bucketed, 1)  # a buffer per bucket and step, dropped after its step


class HooksLastOnly:
    """A hook on each bucket's last parameter only, launching it without counting: right
    only where backward produces the gradients in exactly the reverse order."""

    def __init__(self, model, bucket_bytes):
        self.buckets, bucket, size = [], [], 0
        for p in reversed(list(model.parameters())):
            bucket, size = [*bucket, p], size + p.nbytes
            if size >= bucket_bytes:
                self.buckets, bucket, size = [*self.buckets, bucket], [], 0
        self.buckets += [bucket] if bucket else []
        self.pending = []
        for i, b in enumerate(self.buckets):
            b[-1].register_post_accumulate_grad_hook(lambda p, i=i: self._launch(i))

    def _launch(self, i):
        flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]]) / dist.get_world_size()
        self.pending.append((dist.all_reduce(flat, async_op=True), flat, i))

    def finish(self):
        for work, flat, i in self.pending:
            work.wait()
            sizes = [q.numel() for q in self.buckets[i]]
            for q, part in zip(self.buckets[i], flat.split(sizes), strict=True):
                q.grad.copy_(part.view_as(q))
        self.pending = []


def test_parameters_without_a_hook_are_named_once_the_steps_are_right():
    record = run(CapJob(512), HooksLastOnly, 1)
    assert record["setup"]["unhooked"] == ["0.bias", "2.bias", "4.weight", "4.bias"]
    with pytest.raises(CheckFailed) as info:
        _overlap_checks([record], 1, 512)
    assert str(info.value) == (
        "0.bias, 2.bias, 4.weight, 4.bias got no hook: register one on every parameter "
        "(p.register_post_accumulate_grad_hook), and launch a bucket once the hooks of all its "
        "parameters have run (count them): backward need not produce the gradients in the "
        "order you expect"
    )


class FillsAsArriving:
    """Buckets filled as the gradients arrive, not in reverse order of model.parameters():
    the same buckets where backward's order is that reverse order, other ones elsewhere."""

    def __init__(self, model, bucket_bytes):
        self.count, self.cap = len(list(model.parameters())), bucket_bytes
        self.bucket, self.size, self.seen, self.pending = [], 0, 0, []
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        self.bucket, self.size, self.seen = [*self.bucket, p], self.size + p.nbytes, self.seen + 1
        if self.size >= self.cap or self.seen == self.count:
            flat = torch.cat([q.grad.reshape(-1) for q in self.bucket]) / dist.get_world_size()
            self.pending.append((dist.all_reduce(flat, async_op=True), flat, self.bucket))
            self.bucket, self.size = [], 0

    def finish(self):
        for work, flat, bucket in self.pending:
            work.wait()
            for q, part in zip(bucket, flat.split([q.numel() for q in bucket]), strict=True):
                q.grad.copy_(part.view_as(q))
        self.pending, self.seen = [], 0


def test_buckets_filled_as_the_gradients_arrive_are_named_on_the_out_of_order_run(monkeypatch):
    # each run's job in this process as a world of 1 (its record passes the rules of any
    # world): right on the Sequential model, named on the run whose layers are out of order
    from d2lgpu.checks.ch10_ddp_by_hand import check_overlap_ddp

    jobs = []

    def in_process(answer, world, job):
        jobs.append((world, job.cap, job.dtype, job.out_of_order))
        return [run(job, answer, 1)]

    monkeypatch.setattr(_ranks, "run_ranks", in_process)
    passed = []
    with pytest.raises(CheckFailed) as info:
        check_overlap_ddp(FillsAsArriving, passed)
    assert str(info.value).startswith(
        "with bucket_bytes=512 (step 0) your buckets hold [94, 63] elements: filled in the order "
        "backward produced the gradients."
    )
    assert len(passed) == 4  # each cap on 2 ranks, and the gradients
    two = [(_ranks.WORLD, cap, torch.float32, False) for cap in (1, 512, 268)]
    assert jobs == [*two, (3, 512, torch.float64, True)]


def zero_records(answer, world=2):
    return [run(zero_job, answer, world, rank) for rank in range(world)]


def test_a_zero_rank_records_its_share_its_state_and_what_step_sent():
    records = zero_records(Sharded)
    for rank, record in enumerate(records):
        mine = list(range(rank, 8, 2))  # the greedy owners alternate
        assert record["setup"] == {"type": "Sharded", "missing": []}
        assert record["left"] == [[], [], []]
        assert record["held"] == [mine] * 3
        assert record["state"] == dict.fromkeys(mine, 2 * PARAM)
        assert record["peak"] == [dict.fromkeys(mine, 2 * PARAM)] * 3
        assert record["optimizers"] == 1
        assert record["sent"] == [(8 * PARAM, 8 * PARAM)] * 3
        assert [[(c.kind, c.nbytes) for c in calls] for calls in record["calls"]] == [
            [("broadcast", PARAM)] * 8
        ] * 3
        assert len(record["params"]) == 3 and all(len(ps) == 8 for ps in record["params"])
    compare_zero_grad(records)
    compare_state(records, 2, [256] * 8)
    compare_held(records, 2)
    compare_calls(records)


class HiddenMoments(Sharded):
    """Sharded, keeping a copy of both moments of every parameter (its own and the others')
    in a dict, and an int tensor and a small float one beside them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        super().__init__(params, optimizer_cls, **kwargs)
        self.moments = {
            i: (torch.zeros_like(p), torch.zeros_like(p)) for i, p in enumerate(self.params)
        }
        self.small, self.counts = torch.zeros(255), torch.zeros(300, dtype=torch.long)

    def step(self):
        for m, v in self.moments.values():
            m.add_(1.0)
            v.add_(2.0)
        super().step()


def test_a_zero_rank_records_what_the_answer_made_and_kept_after_the_last_step_only():
    records = zero_records(Sharded)
    assert [record["kept"] for record in records] == [[[], [], []]] * 2  # nothing beside its own
    assert [record["kept_then"] for record in records] == [[[], [], []]] * 2
    for record in zero_records(HiddenMoments):
        first, second, last = record["kept"]
        assert first == second == []  # recorded once, after the last step
        assert sorted((t.numel(), t.dtype, float(t[0])) for t in last) == sorted(
            [(256, torch.float32, 3.0)] * 8 + [(256, torch.float32, 6.0)] * 8
        )  # of a parameter's size or more, floats, made by the answer: the 16 moments only
        # and each one's content after the step before: the same tensor's, a step earlier
        assert record["kept_then"][:2] == [[], []]
        then = record["kept_then"][2]
        assert [float(b[0]) for b in then] == [float(a[0]) * 2 / 3 for a in last]


def test_zero_mistakes_show_in_the_records():
    left = zero_records(shard_variant(zero=False))
    assert left[0]["left"] == [[], list(range(8)), list(range(8))]
    with pytest.raises(CheckFailed, match=r"rank 0 still holds gradients of parameters \[0, 1,"):
        compare_zero_grad(left)
    fresh = zero_records(shard_variant(keep_state=False))
    assert fresh[0]["optimizers"] == 4  # one in __init__, one per step
    whole = zero_records(shard_variant(shard=False))
    assert whole[1]["held"] == [list(range(8))] * 3
    with pytest.raises(CheckFailed, match="every rank holds the whole optimizer state"):
        compare_state(whole, 2, [256] * 8)
    late = zero_records(shard_variant(broadcast=False))
    assert late[0]["sent"] == [(0, 0)] * 3


class BroadcastsFirst(Sharded):
    @torch.no_grad()
    def step(self):
        for p, r in zip(self.params, self.owner, strict=True):
            dist.broadcast(p, src=r)
        self.optimizer.step()


def test_what_step_sent_after_the_inner_step_is_recorded():
    assert run(zero_job, BroadcastsFirst, 2)["sent"] == [(8 * PARAM, 0)] * 3


class TwoRanksWrittenIn(Sharded):
    def __init__(self, params, optimizer_cls, **kwargs):
        params = list(params)
        mine = params[dist.get_rank() :: 2] if dist.get_rank() < 2 else []
        self.params, self.optimizer = params, optimizer_cls(mine, **kwargs)


def test_a_rank_with_no_parameter_and_pytorchs_own_zero_are_named_in_the_rank():
    with pytest.raises(_ranks.RuleBroken) as info:
        run(zero_job, TwoRanksWrittenIn, 4, 2)
    assert str(info.value).startswith(
        "rank 2 of 4 owns no parameter (optimizer_cls raised ValueError: optimizer got an "
        "empty parameter list), though"
    )
    assert "is the world size, 2, written in?" in str(info.value)

    def zero_redundancy(params, optimizer_cls, **kwargs):
        from torch.distributed.optim import ZeroRedundancyOptimizer

        return ZeroRedundancyOptimizer(params, optimizer_cls, **kwargs)

    with pytest.raises(_ranks.RuleBroken, match="PyTorch's own ZeRO-1"):
        run(zero_job, zero_redundancy, 2)

    class Raises(Sharded):
        def __init__(self, params, optimizer_cls, **kwargs):
            raise ValueError("lr must be positive")  # not an empty share: passed on

    with pytest.raises(ValueError, match="lr must be positive"):
        run(zero_job, Raises, 2)

    class NoStep:
        def __init__(self, params, optimizer_cls, **kwargs):
            self.kwargs = kwargs

        def zero_grad(self):
            pass

    assert run(zero_job, NoStep, 2) == {"setup": {"type": "NoStep", "missing": ["step"]}}
    assert ADAM_KWARGS[2]["lr"] == 0.01


class BroadcastsInInit(Bucketed):
    """DDP's own start: every parameter broadcast from rank 0 when the wrapper is built."""

    def __init__(self, model, bucket_bytes):
        for p in model.parameters():
            dist.broadcast(p.data, src=0)
        super().__init__(model, bucket_bytes)


class DropsAGradient(Bucketed):
    def finish(self):
        super().finish()
        next(iter(self.bucket_of)).grad = None  # the last layer's bias


def test_collectives_before_the_steps_are_left_out_and_a_gradient_set_to_none_is_named():
    record = run(CapJob(512), BroadcastsInInit, 1)
    _overlap_checks([record], 1, 512)
    record = run(CapJob(512), DropsAGradient, 1)
    assert record["steps"][0]["got"][5] is None
    with pytest.raises(
        CheckFailed, match=r"^4.bias's gradient \(bucket_bytes=512, step 0\) is None"
    ):
        _overlap_checks([record], 1, 512)


def alone(rank, world=2):
    """What rank ``rank`` of Sharded holds after each step when the fake collectives move
    nothing: its own gradient halved (the average of nothing received), its own parameters
    stepped by Adam with this world's keyword arguments, the others as they started."""
    model = zero_net()
    params = list(model.parameters())
    opt = torch.optim.Adam(params[rank::world], **ADAM_KWARGS[world])
    out = []
    for step in range(3):
        x, y = batch(step, 16)
        opt.zero_grad(set_to_none=True)
        F.cross_entropy(model(x[share(rank, world)]), y[share(rank, world)]).backward()
        for p in params:
            p.grad /= world
        opt.step()
        out.append([p.detach().clone() for p in params])
    return out


def test_a_zero_rank_steps_its_own_parameters_with_the_kwargs_on_the_averaged_gradient():
    for rank in range(2):
        got = run(zero_job, Sharded, 2, rank)["params"]
        for step, (mine, want) in enumerate(zip(got, alone(rank), strict=True)):
            for i, (a, b) in enumerate(zip(mine, want, strict=True)):
                assert torch.equal(a, b), f"rank {rank}, step {step}, parameter {i}"


class AsyncNoWait(Sharded):
    @torch.no_grad()
    def step(self):
        self.optimizer.step()
        self.works = [dist.broadcast(p, src=r, async_op=True)
                      for p, r in zip(self.params, self.owner, strict=True)]  # fmt: skip


class NoInnerStep(Sharded):
    @torch.no_grad()
    def step(self):  # broadcasts only: the inner optimizer never steps
        for p, r in zip(self.params, self.owner, strict=True):
            dist.broadcast(p, src=r)


def test_a_handle_left_by_step_is_named_and_sends_count_without_an_inner_step():
    with pytest.raises(_ranks.RuleBroken) as info:
        run(zero_job, AsyncNoWait, 2)
    assert str(info.value).startswith(
        "8 collective(s) launched with async_op=True were never waited on before step() "
        "returned, the first a broadcast of shape (16, 16)"
    )
    assert run(zero_job, NoInnerStep, 2)["sent"] == [(8 * PARAM, 8 * PARAM)] * 3


class AsyncInInit(Sharded):
    def __init__(self, params, optimizer_cls, **kwargs):
        super().__init__(params, optimizer_cls, **kwargs)
        self.work = dist.broadcast(self.params[0].data, src=0, async_op=True)  # never waited


def test_a_handle_left_by_init_is_named_when_the_rank_finishes_not_at_step():
    with pytest.raises(_ranks.RuleBroken, match="never waited on before rank 0 finished"):
        run(zero_job, AsyncInInit, 2)


def test_a_bucket_held_back_is_named_with_its_step():
    from test_checks_ch10_ddp_by_hand import LaunchesAllInLastHook

    with pytest.raises(CheckFailed, match=r"^bucket 0 \(bucket_bytes=512, step 0\) was launched"):
        _overlap_checks([run(CapJob(512), LaunchesAllInLastHook, 1)], 1, 512)


def test_the_by_hand_batches_shares_and_what_a_first_instance_changed_word_for_word():
    from d2lgpu.checks._ch10_by_hand import (
        BATCH,
        _shown,
        after_a_first,
        first_named,
        kept_by_class,
    )

    x, y = batch(1, 6)  # the 6-feature model has 3 classes, the wider one 16
    assert (x.shape, y.shape, int(y.max()) < 3) == ((BATCH, 6), (BATCH,), True)
    x16, y16 = batch(1, 16)
    assert x16.shape == (BATCH, 16) and int(y16.max()) >= 3
    assert all(torch.equal(a, b) for a, b in zip(batch(2, 6), batch(2, 6), strict=True))
    assert not torch.equal(batch(1, 6)[0], batch(2, 6)[0])  # each step its own batch
    for world in (1, 2, 3, 5):
        rows = [i for r in range(world) for i in range(BATCH)[share(r, world)]]
        assert rows == list(range(BATCH)), world  # every row once, in rank order
    assert [share(r, 3) for r in range(3)] == [slice(0, 5), slice(5, 10), slice(10, 16)]

    class Unshowable:  # a learner's object whose len() raises
        def __len__(self):
            raise RuntimeError("no len")

    assert _shown([1, 2]) == "list 2 [1, 2]"
    assert _shown(7) == "int  7"
    assert _shown("x" * 300).startswith("str 300 'xxx") and len(_shown("x" * 300)) < 220
    bad = Unshowable()
    assert _shown(bad) == f"Unshowable {id(bad)}"

    namespace: dict = {}
    exec(  # noqa: S102 (a learner's cell)
        "import math\n"
        "TABLE = [1]\n"
        "class Kept:\n"
        "    __slots__ = ()\n"
        "    size = 2\n"
        "    def __init__(self, cap=4):\n"
        "        TABLE.append(cap)\n"
        "    @staticmethod\n"
        "    def helper(a, b=1):\n"
        "        return a\n"
        "    @classmethod\n"
        "    def make(cls):\n"
        "        return cls()\n"
        "    @property\n"
        "    def twice(self):\n"
        "        return 2\n"
        "    def step(self):\n"
        "        return 3\n"
        "def build(cap, seen=()):\n"
        "    return Kept(cap)\n"
        "def owners(params, *, loads={}):\n"
        "    return loads\n",
        namespace,
    )
    Kept, build = namespace["Kept"], namespace["build"]
    # the defaults of the module's own functions too (a helper's loads={}), not of others
    namespace["imported"] = functools.partial  # a class of another module
    namespace["outside"] = _shown  # a function of another module
    helpers = {"build's default seen": "tuple 0 ()", "owners's default loads": "dict 0 {}"}
    assert kept_by_class(Kept) == {
        "Kept.__init__'s default cap": "int  4",
        **helpers,
        "Kept.size": "int  2",
        "TABLE": "list 1 [1]",
    }
    assert kept_by_class(build) == {**helpers, "TABLE": "list 1 [1]"}
    namespace["owners"]([], loads={})
    namespace["owners"].__kwdefaults__["loads"][1] = 2048  # what a first instance leaves
    assert kept_by_class(build)["owners's default loads"] == "dict 1 {1: 2048}"
    made: dict = {}  # a function that a factory returns: not one of its module's globals
    exec("def make():\n    def inner(p, cache={}):\n        return cache\n    return inner\n", made)  # noqa: S102
    assert kept_by_class(made["make"]()) == {"make.<locals>.inner's default cache": "dict 0 {}"}

    class Bare:  # object's own __init__: no globals to read
        pass

    assert kept_by_class(Bare) == {}
    assert kept_by_class(functools.partial(build, 3)) == {}  # neither a class nor a function

    record = after_a_first(Kept, lambda: Kept(5), "Kept", lambda: {"steps": 3})
    assert record == {"steps": 3, "changed": ["TABLE"]}
    with pytest.raises(_ranks.RuleBroken) as broken:
        after_a_first(Kept, lambda: Kept(6), "Kept (a first)", _raise_rule_broken)
    assert str(broken.value).startswith(
        "step 2 sent twice. This run built a first Kept (a first), in the same processes, "
        "before this one, and building it changed TABLE: "
    )
    records = [{"changed": ["TABLE"]}, {"changed": ["Kept.size", "TABLE"]}, {}]
    with pytest.raises(CheckFailed) as wrong, first_named(records, "Kept"):
        raise CheckFailed("a hint")
    assert wrong.value.hint.startswith(
        "a hint. This run built a first Kept, in the same processes, before this one, and "
        "building it changed Kept.size, TABLE: "
    )
    with first_named(records, "Kept"):  # nothing raised: nothing said
        pass


def _raise_rule_broken():
    raise _ranks.RuleBroken("step 2 sent twice")


def test_parameters_of_a_first_instances_model_kept_outside_the_instance_are_named():
    from torch import nn

    from d2lgpu.checks._ch10_by_hand import _parameters_kept, after_a_first

    namespace: dict = {"nn": nn}
    exec(  # noqa: S102 (a learner's cell)
        "PLANS = {}\n"
        "OLD = [nn.Parameter(nn.Linear(2, 2).weight.detach())]\n"  # before the first: not its
        "class Cached:\n"
        "    plans = {}\n"
        "    def __init__(self, model, cap):\n"
        "        Cached.plans[(id(model), cap)] = [[list(model.parameters())]]\n"
        "class Global:\n"
        "    def __init__(self, model, cap):\n"
        "        PLANS[cap] = tuple(model.parameters())\n"
        "class Own:\n"
        "    count = 0\n"
        "    def __init__(self, model, cap):\n"
        "        self.params = list(model.parameters())\n"
        "        Own.count += 1\n",
        namespace,
    )
    Cached, Global, Own = namespace["Cached"], namespace["Global"], namespace["Own"]
    assert _parameters_kept(Own) == {"OLD": {id(namespace["OLD"][0])}}
    model = nn.Linear(3, 3)
    for answer, where in ((Cached, "Cached.plans"), (Global, "PLANS")):
        with pytest.raises(_ranks.RuleBroken) as broken:
            after_a_first(answer, lambda a=answer: a(model, 8), "X (a first)", dict)
        assert str(broken.value) == (
            f"building a first X (a first), in the same processes, left parameters of its model "
            f"in {where}, which the class, the module or a default argument keeps, not the "
            "instance: every later instance finds them there (a plan of another model's "
            "parameters, or of this one's in another dtype). Keep what an instance needs on self"
        )
    # kept on the instance, and a count kept by the class: no parameter kept outside it
    assert after_a_first(Own, lambda: Own(model, 8), "X", dict) == {"changed": ["Own.count"]}
    assert _parameters_kept(Cached, depth=1) == {"OLD": {id(namespace["OLD"][0])}}
    # where they lie: within the depth asked for (4), past types and siblings, in a function's
    # module and attributes; none in a class with object's own __init__
    p, q = nn.Parameter(torch.ones(1)), nn.Parameter(torch.ones(1))
    found = {"DEEP4": {id(p)}, "MIXED": {id(p)}, "PAIR": {id(p)}, "KEYS": {id(p)}}
    space: dict = {"DEEP4": [[[[p]]]], "DEEP5": [[[[[q]]]]], "MIXED": [p, int, nn.Linear],
                   "PAIR": [[p], [1.0]], "KEYS": {"a": [p], "b": [1.0]}, "__hidden__": [q]}  # fmt: skip
    exec("def build(model, cap):\n    return None\n", space)  # noqa: S102
    space["build"].cache = {"plan": [q]}
    assert _parameters_kept(space["build"]) == {**found, "build.cache": {id(q)}}

    class Bare:  # object's own __init__: no module to read
        kept = [p]

    assert _parameters_kept(Bare) == {"Bare.kept": {id(p)}}

    # a first instance whose build changed something, then an error of the learner's own: named
    # with what changed; with nothing changed, the error goes on as it was
    def boom():
        raise ValueError("boom")

    with pytest.raises(_ranks.RuleBroken) as broken:
        after_a_first(Own, lambda: Own(model, 8), "X (a first)", boom)
    assert str(broken.value).startswith(
        "your code raised ValueError: boom (in your function boom, line "
    ) and str(broken.value).endswith(
        "This run built a first X (a first), in the same processes, before this one, and "
        "building it changed Own.count: what a class attribute, a module's global or a "
        "function's default argument keeps, not the instance, carries over to the next "
        "instance. Keep it on self"
    )
    with pytest.raises(ValueError, match="^boom$"):
        after_a_first(Cached, lambda: None, "X", boom)
