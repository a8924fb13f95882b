"""d2lgpu.ddp_timeline: a hand-built DDP step's backward and all-reduces, timed and drawn.

The drawing is tested on made-up records (fast, exact); the measurement runs two real gloo
ranks (slow) with small answers to exercises 10.2 and 10.3 written here.
"""

import pytest
import torch.distributed as dist

from d2lgpu.ddp_timeline import format_steps, measure_steps

# Made-up records: 4 parameters (two layers), times in seconds.
RECORDS = {
    "average_gradients": {
        "backward": 0.004,
        "step": 0.008,
        "ready": [(0.001, 3), (0.002, 2), (0.003, 1), (0.004, 0)],
        "all_reduces": [(0.005, 0.007, 0)],
    },
    "OverlappedDDP": {
        "backward": 0.004,
        "step": 0.005,
        "ready": [(0.001, 3), (0.002, 2), (0.003, 1), (0.004, 0)],
        "all_reduces": [(0.002, 0.004, 2), (0.004, None, 0)],
    },
}


def test_the_drawing_has_a_backward_and_an_all_reduce_row_for_each_way():
    text = format_steps(RECORDS, width=16)
    rows = text.splitlines()
    assert rows[0].endswith(" 7 ms")  # one time scale, to the last all-reduce's end
    # a digit per layer (a weight and a bias each), the last layer first
    assert rows[1] == "average_gradients: backward   |111110000       |"
    assert rows[2] == "average_gradients: all-reduce |           =====|"
    assert rows[3] == "OverlappedDDP: backward       |111110000       |"
    # launched when layer 1's last gradient was ready, then as backward returned: "="
    assert rows[4] == "OverlappedDDP: all-reduce     |     1111==     |"
    assert rows[5] == (
        "average_gradients: step 8.0 ms, backward 4.0 ms; "
        "0 of 1 all-reduces launched before backward returned"
    )
    assert rows[6] == (
        "OverlappedDDP: step 5.0 ms, backward 4.0 ms; "
        "1 of 2 all-reduces launched before backward returned"
    )


def test_records_without_both_ways_are_refused():
    with pytest.raises(ValueError, match=r"missing \['OverlappedDDP'\]"):
        format_steps({"average_gradients": RECORDS["average_gradients"]})


@pytest.mark.parametrize(
    ("args", "error", "match"),
    [
        ((None, dict), TypeError, "average_gradients must be a function"),
        ((print, dict, 0), ValueError, "bucket_bytes must be a positive int, got 0"),
    ],
)
def test_bad_arguments_are_named(args, error, match):
    with pytest.raises(error, match=match):
        measure_steps(*args)


def average_gradients(model):
    for p in model.parameters():
        dist.all_reduce(p.grad)
        p.grad /= dist.get_world_size()


class OverlappedDDP:
    """A bucket per parameter: simple, and enough to overlap."""

    def __init__(self, model, bucket_bytes):
        self.pending = []
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        p.grad /= dist.get_world_size()
        self.pending.append(dist.all_reduce(p.grad, async_op=True))

    def finish(self):
        for handle in self.pending:
            handle.wait()
        self.pending.clear()


@pytest.mark.slow
def test_measured_steps_launch_the_overlapped_all_reduces_during_backward():
    steps = measure_steps(average_gradients, OverlappedDDP)
    after, during = steps["average_gradients"], steps["OverlappedDDP"]
    n = 2 * 6  # a weight and a bias per layer
    assert [k for _, k in after["ready"]] == list(range(n))[::-1]  # the last layer first
    assert len(after["all_reduces"]) == len(during["all_reduces"]) == n
    assert all(t >= after["backward"] for t, _, _ in after["all_reduces"])
    assert all(t < during["backward"] for t, _, _ in during["all_reduces"])  # from the hooks
    assert all(done is not None and done >= t for t, done, _ in during["all_reduces"])
    for r in (after, during):
        assert 0 < r["backward"] <= r["step"]
        assert r["ready"] == sorted(r["ready"])


@pytest.mark.slow
def test_a_stub_is_reported_as_not_implemented():
    def stub(*args):
        raise NotImplementedError("your code here")

    with pytest.raises(NotImplementedError, match="your code here"):
        measure_steps(average_gradients, stub)
