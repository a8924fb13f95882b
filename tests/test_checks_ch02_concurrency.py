"""The checker of 02.concurrency: reference answers pass, realistic wrong answers fail with the right hint.

The reference answers here are written independently of the solution notebooks
(whose stored PASS outputs nbval compares), so a checker is tested against two
solutions. Every wrong answer is one a learner is likely to write.
"""

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
import torch
from grading_helpers import assert_fails, assert_passes

from d2lgpu.checks._kit import patched


def run_concurrently(x, y, lanes):
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    return fx.result(), fy.result()


def test_concurrency_reference_passes():
    assert_passes("02.concurrency", run_concurrently)


def test_concurrency_passes_with_lambdas_too():
    def with_lambdas(x, y, lanes):
        futures = [lanes[0].submit(lambda: x @ x), lanes[1].submit(lambda: y @ y)]
        return tuple(f.result() for f in futures)

    assert_passes("02.concurrency", with_lambdas)


def test_concurrency_rejects_waiting_between_the_launches():
    def waits_between(x, y, lanes):
        xx = lanes[0].submit(torch.matmul, x, x).result()
        yy = lanes[1].submit(torch.matmul, y, y).result()
        return xx, yy

    result = assert_fails(
        "02.concurrency",
        waits_between,
        "you waited for lanes[0] (.result())",
        "on two GPUs as on one",
        "Submit both first",
    )
    assert len(result.passed) == 2  # correct results, one product per lane


def test_concurrency_hint_says_where_launching_both_first_helps_and_where_it_cannot():
    def waits_between(x, y, lanes):
        xx = lanes[0].submit(torch.matmul, x, x).result()
        return xx, lanes[1].submit(torch.matmul, y, y).result()

    assert_fails(
        "02.concurrency",
        waits_between,
        "two GPUs each do half the work",
        "never measured by this course",  # no two-GPU run exists: the hint must not claim one
        "two streams of one GPU overlap only products small enough to leave SMs idle",
        "a large product fills every SM",
    )
    passed = assert_passes("02.concurrency", run_concurrently).passed
    assert "on two GPUs" in passed[-1] and "leave SMs idle" in passed[-1], passed[-1]


def test_concurrency_rejects_a_device_sync_between_the_launches():
    def synchronizes_between(x, y, lanes):
        fx = lanes[0].submit(torch.matmul, x, x)
        torch.cuda.synchronize()  # the checker records it, on any machine
        fy = lanes[1].submit(torch.matmul, y, y)
        return fx.result(), fy.result()

    assert_fails("02.concurrency", synchronizes_between, "torch.cuda.synchronize()")


def test_concurrency_rejects_both_products_on_one_lane():
    def one_lane(x, y, lanes):
        fx = lanes[0].submit(torch.matmul, x, x)
        fy = lanes[0].submit(torch.matmul, y, y)
        return fx.result(), fy.result()

    assert_fails("02.concurrency", one_lane, "both products went to lanes[0]")


def test_concurrency_rejects_bypassing_the_lanes_and_wrong_results():
    assert_fails(
        "02.concurrency",
        lambda x, y, lanes: (x @ x, y @ y),
        "both products were computed in your function itself, in the caller's thread",
    )

    def own_pool(x, y, lanes):
        with ThreadPoolExecutor(2) as pool:
            fx, fy = pool.submit(torch.matmul, x, x), pool.submit(torch.matmul, y, y)
            return fx.result(), fy.result()

    assert_fails("02.concurrency", own_pool, "nothing was submitted to the lanes this call")
    assert_fails("02.concurrency", lambda x, y, lanes: (y @ y, x @ x), "swapped")
    assert_fails(
        "02.concurrency",
        lambda x, y, lanes: (lanes[0].submit(torch.matmul, x, x), lanes[1].submit(torch.mm, y, y)),
        "you returned futures",
    )


def test_concurrency_alternatives_pass():
    def second_lane_first(x, y, lanes):
        fy = lanes[1].submit(torch.matmul, y, y)
        fx = lanes[0].submit(torch.matmul, x, x)
        return fx.result(), fy.result()

    def with_a_wait_at_the_end(x, y, lanes):
        futures = [lane.submit(torch.mm, a, a) for lane, a in zip(lanes[:2], (x, y), strict=True)]
        return [f.result() for f in reversed(futures)][::-1]

    assert_passes("02.concurrency", second_lane_first)
    assert_passes("02.concurrency", with_a_wait_at_the_end)


def test_concurrency_futures_promise_only_result():
    # The notebook's CudaFuture has result() and nothing else: concurrent.futures.wait() and
    # polling done() work on a ThreadPoolExecutor's futures and fail on a GPU lane's.
    def with_wait(x, y, lanes):
        from concurrent.futures import wait

        futures = [lane.submit(torch.mm, a, a) for lane, a in zip(lanes, (x, y), strict=True)]
        wait(futures)
        return [f.result() for f in futures]

    def polls_done(x, y, lanes):
        fx, fy = lanes[0].submit(torch.mm, x, x), lanes[1].submit(torch.mm, y, y)
        while not (fx.done() and fy.done()):
            pass
        return fx.result(), fy.result()

    assert_fails(
        "02.concurrency", with_wait, "concurrent.futures.wait() or as_completed()", "CudaFuture"
    )
    assert_fails("02.concurrency", polls_done, "has no 'done'", "promises only result()")


def test_concurrency_names_a_host_read_inside_a_lanes_job():
    def checks_finite(t):
        out = t @ t
        assert float(out.sum()) == float(out.sum())  # a host read, inside the lane's function
        return out

    def reads_in_the_job(x, y, lanes):
        fx, fy = lanes[0].submit(checks_finite, x), lanes[1].submit(checks_finite, y)
        return fx.result(), fy.result()

    assert_fails(
        "02.concurrency",
        reads_in_the_job,
        "the function you submitted to lanes[0] makes a host read (float())",
        "one after the other",
    )


def test_concurrency_names_a_product_computed_again_in_the_caller():
    def verifies(x, y, lanes):
        fx, fy = lanes[0].submit(torch.matmul, x, x), lanes[1].submit(torch.matmul, y, y)
        xx, yy = fx.result(), fy.result()
        assert torch.allclose(xx, x @ x)
        return xx, yy

    assert_fails(
        "02.concurrency", verifies, "computed a product itself", "in the caller, outside the lanes"
    )


def test_concurrency_names_an_input_moved_in_the_caller():
    def moves_y(x, y, lanes):
        y = y.to(x.device)  # a copy to GPU 0 on a two-GPU machine
        fx, fy = lanes[0].submit(torch.matmul, x, x), lanes[1].submit(torch.matmul, y, y)
        return fx.result(), fy.result()

    def reads_x(x, y, lanes):
        print(x.tolist()[0][:3])  # the first values of x, copied to the host
        fx, fy = lanes[0].submit(torch.matmul, x, x), lanes[1].submit(torch.matmul, y, y)
        return fx.result(), fy.result()

    assert_fails("02.concurrency", moves_y, "you copied the input y with .to()", "lanes[1]'s GPU")
    assert_fails("02.concurrency", reads_x, "you copied the input x with .tolist()")


def test_concurrency_takes_products_of_different_sizes():
    def same_shapes_only(x, y, lanes):
        if x.shape != y.shape:
            raise ValueError("x and y must have the same shape")
        fx, fy = lanes[0].submit(torch.matmul, x, x), lanes[1].submit(torch.matmul, y, y)
        return fx.result(), fy.result()

    assert_fails(
        "02.concurrency",
        same_shapes_only,
        "with x of 64 x 64 and y of 48 x 48 in float64 your function raised ValueError",
    )


def test_concurrency_names_a_changed_dtype():
    def doubled(x, y, lanes):
        fx, fy = lanes[0].submit(torch.matmul, x, x), lanes[1].submit(torch.matmul, y, y)
        return fx.result().double(), fy.result().double()

    assert_fails("02.concurrency", doubled, "x @ x came back as torch.float64")


def test_concurrency_rejects_products_on_the_wrong_lanes():
    def crossed(x, y, lanes):
        fy = lanes[0].submit(torch.matmul, y, y)
        fx = lanes[1].submit(torch.matmul, x, x)
        return fx.result(), fy.result()  # right results, wrong lanes

    assert_fails("02.concurrency", crossed, "lanes[0] computed the other product, not x @ x")


def test_concurrency_rejects_results_computed_again_outside_the_lanes():
    def recomputed(x, y, lanes):
        fx = lanes[0].submit(torch.matmul, x, x)
        fy = lanes[1].submit(torch.matmul, y, y)
        fx.result(), fy.result()
        return x @ x, y @ y

    assert_fails("02.concurrency", recomputed, "not the ones the lanes computed")


def test_concurrency_rejects_a_product_submitted_twice():
    def twice(x, y, lanes):
        fx = lanes[0].submit(torch.matmul, x, x)
        lanes[0].submit(torch.matmul, x, x)
        fy = lanes[1].submit(torch.matmul, y, y)
        return fx.result(), fy.result()

    assert_fails("02.concurrency", twice, "the lanes got 3 launches", "exactly one product")


def test_inputs_say_they_are_on_two_gpus_in_the_run_that_pretends_them():
    from d2lgpu.checks._ch02_lanes import run_logged

    seen = []

    def answer(x, y, lanes):
        seen.extend([x.device, y.device, x.is_cuda, (x @ x).device, (x @ x).is_cuda])
        return lanes[0].submit(torch.matmul, x, x).result(), lanes[1].submit(
            torch.matmul, y, y
        ).result()

    x, y = torch.ones(2, 2), torch.ones(3, 3)
    run_logged(answer, x, y, 2, gpus=(0, 1))
    cuda = torch.device("cuda", 0), torch.device("cuda", 1)
    # and what is made from them: a product of x on cuda:0 is on cuda:0 (a synchronize
    # behind `if out.is_cuda` in a lane's job is seen)
    assert seen == [*cuda, True, cuda[0], True]
    seen.clear()
    run_logged(answer, x, y, 2)
    assert seen == [torch.device("cpu")] * 2 + [False, torch.device("cpu"), False]
    assert x.device.type == "cpu"  # only while the answer runs


def test_each_lane_has_the_device_of_the_gpu_it_pretends():
    from d2lgpu.checks._ch02_lanes import run_logged

    def devices(x, y, lanes):
        futures = [lane.submit(torch.matmul, m, m) for lane, m in zip(lanes, (x, y), strict=True)]
        return [lane.device for lane in lanes], [f.result() for f in futures]

    x, y = torch.ones(2, 2), torch.ones(3, 3)
    for gpus in ((0, 1), (0, 0), (1, 0)):
        said, _ = run_logged(devices, x, y, 2, gpus=gpus)[0]
        assert said == [torch.device("cuda", i) for i in gpus]
    assert not hasattr(run_logged(lambda x, y, lanes: lanes, x, y, 2)[0][0], "device")


def test_a_logged_run_records_launches_waits_and_copies_where_they_happen():
    from d2lgpu.checks._ch02_lanes import run_logged

    def answer(x, y, lanes):
        first = lanes[0].submit(torch.matmul, x, x)

        def nested(b, scale):  # a job that launches and waits inside it
            lanes[0].submit(torch.mul, b, scale).result()
            shapes.append((torch.sum(b, dim=0).shape, torch.zeros(size=(3,)).shape))
            return b @ b

        second = lanes[1].submit(nested, y, 2.0)
        torch.cuda.synchronize()
        a = first.result()
        a.cpu()  # a copy of lanes[0]'s result
        b = second.result()
        b.cpu(), torch.ones(1).cpu()  # lanes[1]'s, and a tensor of no lane
        return a, b

    x, y, shapes = torch.ones(2, 2), torch.full((2, 2), 2.0), []
    with patched((torch.cuda, "synchronize", lambda *a, **k: None)):
        result, lanes, log = run_logged(answer, x, y, 2)
    assert torch.equal(result[1], y @ y)
    assert shapes == [(torch.Size([2]), torch.Size([3]))]  # the factories' keywords pass on
    assert [entry for entry in log if entry[0] in ("launch", "wait")] == [
        ("launch", "lanes[0]", None),
        ("launch", "lanes[1]", None),
        ("launch", "lanes[0]", "lanes[1]"),
        ("wait", "lanes[0]", "lanes[1]"),
        ("wait", "device", None),
        ("wait", "lanes[0]", None),
        ("wait", "lanes[1]", None),
    ]
    assert [entry for entry in log if entry[0] == "copy"] == [
        ("copy", "lanes[0]", ".cpu()"),
        ("copy", "lanes[1]", ".cpu()"),
    ]

    def raises(x, y, lanes):
        raise RuntimeError("no CUDA here")

    assert run_logged(raises, x, y, 2, errors_ignored=True)[0] is None


def test_a_lane_future_offers_result_only_and_says_so():
    from d2lgpu.checks._ch02_lanes import LoggedFuture, LoggingLane

    future = LoggingLane("lanes[0]", []).submit(torch.matmul, torch.ones(1, 1), torch.ones(1, 1))
    assert isinstance(future, LoggedFuture)
    with pytest.raises(AttributeError) as info:
        future.done()
    assert str(info.value) == (
        "a lane's future has no 'done': done(), which the chapter's CudaFuture does not offer. "
        "A lane's future promises only result(), which waits for the work and returns its "
        "value: call .result() on each future, after both launches"
    )
    with pytest.raises(AttributeError) as info:
        future._state  # noqa: B018  (what concurrent.futures.wait reads)
    assert str(info.value).startswith(
        "a lane's future has no '_state': concurrent.futures.wait() or as_completed(), which "
        "need a concurrent.futures.Future, the chapter's CudaFuture does not offer."
    )
    with pytest.raises(AttributeError, match="^__deepcopy__$"):
        future.__deepcopy__  # noqa: B018


def _both(x, y, lanes):
    return lanes[0].submit(torch.matmul, x, x), lanes[1].submit(torch.matmul, y, y)


# Wrong answers, each with its hint's words that tell it apart from its neighbours'.
WRONG_RESULTS = {
    "lists": (
        lambda x, y, lanes: tuple(f.result().tolist() for f in _both(x, y, lanes)),
        "return the two products as tensors: (x @ x, y @ y)",
    ),
    "second as float64": (
        lambda x, y, lanes: (_both(x, y, lanes)[0].result(), (y @ y).double()),
        "y @ y came back as torch.float64, its inputs are torch.float32",
    ),
    "first wrong": (
        lambda x, y, lanes: (x @ x.T, _both(x, y, lanes)[1].result()),
        "the first result is not x @ x",
    ),
    "second wrong": (
        lambda x, y, lanes: (_both(x, y, lanes)[0].result(), y * y),
        "the second result is not y @ y",
    ),
}


@pytest.mark.parametrize("case", WRONG_RESULTS)
def test_concurrency_names_which_result_is_wrong_and_how(case):
    answer, hint = WRONG_RESULTS[case]
    result = assert_fails("02.concurrency", answer, hint)
    assert result.hint.startswith(hint) and not result.passed, result


def test_concurrency_names_results_ordered_by_size_as_swapped():
    # Right for two equal sizes; with x of 64 x 64 and y of 48 x 48 it returns (y @ y, x @ x).
    def largest_last(x, y, lanes):
        return tuple(sorted((f.result() for f in _both(x, y, lanes)), key=len))

    result = assert_fails(
        "02.concurrency",
        largest_last,
        "the results are swapped: return (x @ x, y @ y) in that order",
    )
    assert len(result.passed) == 2, result.passed  # right in the first cases


def test_concurrency_names_what_a_lane_computed_in_place_of_its_product():
    def lane_makes_a_list(x, y, lanes):
        fx, fy = lanes[0].submit(torch.matmul, x, x), lanes[1].submit(lambda: (y @ y).tolist())
        return fx.result(), torch.tensor(fy.result())

    assert_fails(
        "02.concurrency",
        lane_makes_a_list,
        "lanes[1] computed a list, not y @ y: submit the product itself, "
        "lanes[1].submit(torch.matmul, a, a)",
    )

    def lane_flattens(x, y, lanes):
        fx, fy = lanes[0].submit(torch.matmul, x, x), lanes[1].submit(lambda: (y @ y).flatten())
        return fx.result(), fy.result().view(len(y), -1)

    assert_fails("02.concurrency", lane_flattens, "lanes[1] computed a Tensor, not y @ y")

    def lane_transposes(x, y, lanes):
        fx, fy = lanes[0].submit(torch.matmul, x, x), lanes[1].submit(torch.matmul, y, y.T)
        fy.result()
        return fx.result(), torch.mm(y, y)

    assert_fails(
        "02.concurrency",
        lane_transposes,
        "lanes[1] computed something else, not y @ y: submit x @ x to lanes[0] and y @ y to "
        "lanes[1]",
    )


def test_concurrency_names_three_launches_in_their_order():
    def three(x, y, lanes):
        fx = lanes[0].submit(torch.matmul, x, x)
        lanes[0].submit(torch.matmul, x, x)
        return fx.result(), lanes[1].submit(torch.matmul, y, y).result()

    assert_fails(
        "02.concurrency",
        three,
        "the lanes got 3 launches (lanes[0], lanes[0], lanes[1]): submit exactly one product",
    )


def test_concurrency_names_one_result_not_the_lanes_own():
    for i in (0, 1):

        def one_cloned(x, y, lanes, i=i):
            results = [f.result() for f in _both(x, y, lanes)]
            results[i] = results[i] + 0
            return tuple(results)

        assert_fails(
            "02.concurrency",
            one_cloned,
            "the returned tensors are not the ones the lanes computed",
        )


@pytest.mark.parametrize(("name", "lane"), [("x", "lanes[0]"), ("y", "lanes[1]")])
def test_concurrency_names_the_input_copied_and_the_lane_it_belongs_to(name, lane):
    def copies_one(x, y, lanes):
        x, y = (x.cpu(), y) if name == "x" else (x, y.cpu())  # to the host, on a GPU
        return tuple(f.result() for f in _both(x, y, lanes))

    assert_fails(
        "02.concurrency",
        copies_one,
        f"you copied the input {name} with .cpu(): the inputs are already where their lanes "
        f"work (in the notebook with two GPUs, {name} lives on {lane}'s GPU)",
        f"Submit {name} to {lane} as it is",
    )


def test_a_future_s_exception_before_the_second_launch_is_a_wait_named_by_that_call():
    def exception_first(x, y, lanes):
        fx = lanes[0].submit(torch.matmul, x, x)
        if hasattr(fx, "exception") and fx.exception() is not None:  # "fail fast"
            raise fx.exception()
        fy = lanes[1].submit(torch.matmul, y, y)
        return fx.result(), fy.result()

    hint = assert_fails("02.concurrency", exception_first).hint
    assert hint.startswith(
        "you waited for lanes[0] (.exception()) before launching the second product: that "
        "runs them one after another"
    )


def test_a_lane_that_casts_its_product_is_named_by_the_float64_case():
    def as_float(x, y, lanes):
        fx = lanes[0].submit(lambda a: torch.matmul(a, a).float(), x)
        fy = lanes[1].submit(lambda a: torch.matmul(a, a).float(), y)
        return fx.result(), fy.result()

    hint = assert_fails("02.concurrency", as_float).hint
    assert hint.startswith("y @ y came back as torch.float32, its inputs are torch.float64")


def test_a_future_s_exception_after_both_launches_passes():
    def exceptions_after(x, y, lanes):
        futures = [lanes[0].submit(torch.matmul, x, x), lanes[1].submit(torch.matmul, y, y)]
        for future in futures:
            if future.exception() is not None:
                raise future.exception()
        return tuple(future.result() for future in futures)

    assert_passes("02.concurrency", exceptions_after)


def test_streams_switched_names_the_first_stream_made_current_before_a_launch():
    from d2lgpu.checks._ch02_lanes import streams_switched

    log = [
        ("stream", "a new stream", None),
        ("stream", "the default stream", None),
        ("launch", "lanes[0]", None),
    ]
    assert streams_switched(log) == (
        "you made a new stream the current stream before submitting (torch.cuda.stream or "
        "set_stream, in a run where x, y were on cuda:0, cuda:1): a GPU lane (the chapter's "
        "CudaLane) makes its own stream wait for the current stream, where the caller made x "
        "and y; under a new stream it waits for other work, and its product may read the "
        "inputs before they are written. Submit from the caller's current stream as it is"
    )
    # a switch with no launch after it, or a launch with no switch: nothing to say
    assert streams_switched([("stream", "a new stream", None), ("wait", "device", None)]) is None
    assert streams_switched([("launch", "lanes[0]", None), ("wait", "lanes[0]", None)]) is None
    assert streams_switched([]) is None


def test_a_logged_run_that_pretends_two_gpus_records_the_callers_stream_switches():
    from d2lgpu.checks._ch02_lanes import run_logged

    def answer(x, y, lanes):
        with torch.cuda.stream(torch.cuda.Stream()):
            fx = lanes[0].submit(torch.matmul, x, x)
        torch.cuda.set_stream(torch.cuda.default_stream())
        torch.cuda.set_stream(torch.cuda.current_stream())  # the current one: no switch
        torch.cuda.stream(None)  # no stream: no switch

        def switches(b):  # inside a lane's job: the lane's own business
            torch.cuda.set_stream(torch.cuda.Stream())
            return b @ b

        fy = lanes[1].submit(switches, y)
        return fx.result(), fy.result()

    x, y = torch.ones(2, 2), torch.ones(3, 3)
    _, _, log = run_logged(answer, x, y, 2, gpus=(0, 1))
    assert [entry for entry in log if entry[0] == "stream"] == [
        ("stream", "a new stream", None),
        ("stream", "the default stream", None),
    ]

    real = torch.cuda.stream, torch.cuda.set_stream, torch.cuda.Stream
    seen = []

    def looks(x, y, lanes):
        seen.append((torch.cuda.stream, torch.cuda.set_stream, torch.cuda.Stream))
        return lanes[0].submit(torch.matmul, x, x).result(), lanes[1].submit(
            torch.matmul, y, y
        ).result()

    run_logged(looks, x, y, 2)  # without gpus: CUDA's own stream functions
    assert seen == [real]


def test_concurrency_names_a_stream_made_current_before_the_submits():
    def on_a_new_stream(x, y, lanes):
        side = torch.cuda.Stream() if torch.cuda.is_available() else None
        with torch.cuda.stream(side):  # no stream where there is no GPU: nothing switched
            futures = [lanes[0].submit(torch.matmul, x, x), lanes[1].submit(torch.matmul, y, y)]
        return tuple(f.result() for f in futures)

    result = assert_fails("02.concurrency", on_a_new_stream)
    assert result.hint.startswith(
        "you made a new stream the current stream before submitting (torch.cuda.stream or "
        "set_stream, in a run where x, y were on cuda:0, cuda:1)"
    ), result.hint


def test_a_logged_run_records_a_host_read_in_the_caller_and_copies_apart():
    from d2lgpu.checks._ch02_lanes import run_logged

    def answer(x, y, lanes):
        float(x.sum())  # a host read in the caller
        torch.equal(x, x)
        y.tolist()  # a copy of the input: logged as a copy, not as a read
        return lanes[0].submit(torch.matmul, x, x).result(), lanes[1].submit(
            torch.matmul, y, y
        ).result()

    _, _, log = run_logged(answer, torch.ones(2, 2), torch.ones(3, 3), 2)
    assert [entry for entry in log if entry[0] in ("read", "copy")] == [
        ("read", "float()", None),
        ("read", "torch.equal()", None),
        ("copy", "y", ".tolist()"),
    ]


def test_a_logged_run_says_where_only_what_came_from_the_pretend_gpu_tensors_is():
    from d2lgpu.checks._ch02_lanes import run_logged

    seen = {}

    def answer(x, y, lanes):
        seen["from x's shape"] = torch.zeros(x.shape).device  # made on the CPU: not x's
        torch.add(x, y, out=y)  # y, written by a function of x, stays where y is
        seen["y after out="] = y.device
        products = [x @ x for _ in range(100)]
        del products  # let go of: new tensors that take their memory (and id()) are on the CPU
        seen["fresh"] = {t.device for t in [torch.ones(2, 2) for _ in range(100)]}
        return lanes[0].submit(torch.matmul, x, x).result(), lanes[1].submit(
            torch.matmul, y, y
        ).result()

    from d2lgpu.checks._util import CheckFailed

    with pytest.raises(CheckFailed, match="changed its input y in place"):  # y, written by out=
        run_logged(answer, torch.ones(2, 2), torch.ones(2, 2), 2, gpus=(0, 1))
    cpu = torch.device("cpu")
    assert seen == {
        "from x's shape": cpu,
        "y after out=": torch.device("cuda", 1),
        "fresh": {cpu},
    }


def test_a_future_s_exception_is_a_wait_inside_a_job_and_on_a_plain_list_log():
    from d2lgpu.checks._ch02_lanes import LateLane, LoggingLane, run_logged

    log = []
    future = LoggingLane("lanes[0]", log).submit(torch.matmul, torch.ones(1, 1), torch.ones(1, 1))
    assert future.exception() is None
    assert log == [("launch", "lanes[0]", None), ("wait", "lanes[0]", None)]

    def answer(x, y, lanes):
        first = lanes[0].submit(torch.matmul, x, x)

        def checks_first(b):
            first.exception()  # inside lanes[1]'s job
            return b @ b

        second = lanes[1].submit(checks_first, y)
        return first.result(), second.result()

    _, _, log = run_logged(answer, torch.ones(2, 2), torch.ones(2, 2), 2)
    assert [entry for entry in log if entry[0] in ("launch", "wait")] == [
        ("launch", "lanes[0]", None),
        ("launch", "lanes[1]", None),
        ("wait", "lanes[0]", "lanes[1]"),
        ("wait", "lanes[0]", None),
        ("wait", "lanes[1]", None),
    ]
    assert log.called == {2: ".exception()"}

    late = LateLane().submit(lambda a, *, scale: a * scale, 3, scale=2)
    assert late.result() == 6 and late.exception() is None


def test_results_are_judged_swapped_whole_and_only_when_they_are():
    from d2lgpu.checks._ch02_results import check_results as _check_results
    from d2lgpu.checks._util import CheckFailed

    xx, yy = torch.ones(2, 2), torch.full((3, 3), 2.0)

    def hint(result, xx=xx, yy=yy):
        with pytest.raises(CheckFailed) as info:
            _check_results(result, xx, yy)
        return str(info.value)

    swapped = "the results are swapped: return (x @ x, y @ y) in that order"
    assert hint((yy, xx)) == swapped  # the sizes tell them apart
    assert hint((yy, torch.ones(4, 4))) == swapped  # y @ y first, whatever comes second
    # a value of y @ y that only broadcasts to its shape is not y @ y
    assert hint((torch.full((1,), 2.0), torch.ones(2, 2))) == (
        "the first result is not x @ x: its shape is (1,), the product's (2, 2)"
    )
    same = torch.eye(2)
    assert _check_results((same, same), same, same) is None  # equal products: not swapped
    # a product rounded in float16 and cast back is close, and named for that
    x, y = torch.randn(2, 64, 64, generator=torch.Generator().manual_seed(3))
    half = (y.half() @ y.half()).float()
    assert hint((x @ x, half), x @ x, y @ y).startswith(
        "the second result is not y @ y, though close to it (off by "
    )
    assert "computed in a lower precision" in hint((x @ x, half), x @ x, y @ y)
    assert hint((x @ x, y * y), x @ x, y @ y) == "the second result is not y @ y"


def test_a_wait_before_the_second_launch_on_a_plain_list_log_is_a_result():
    from d2lgpu.checks._ch02_order import check_order as _check_order
    from d2lgpu.checks._util import CheckFailed

    log = [("launch", "lanes[0]", None), ("wait", "lanes[0]", None), ("launch", "lanes[1]", None)]
    with pytest.raises(CheckFailed) as info:
        _check_order(log)
    assert str(info.value).startswith(
        "you waited for lanes[0] (.result()) before launching the second product: that runs "
        "them one after another"
    )


@pytest.mark.parametrize("late", [None, [1, 2]], ids=["nothing", "numbers"])
def test_late_lanes_that_get_no_pair_of_tensors_back_are_named(late):
    from d2lgpu.checks._util import CheckFailed
    from d2lgpu.checks.ch02_concurrency import _check_late_lanes

    with pytest.raises(CheckFailed) as info:
        _check_late_lanes(lambda x, y, lanes: late, torch.ones(2, 2), torch.ones(2, 2))
    assert str(info.value).startswith(
        "with lanes that start each function only when its result is asked for (a busy "
        "ThreadPoolExecutor may start it late), your function did not return (x @ x, y @ y)"
    )


def test_a_launch_from_inside_a_job_or_from_a_thread_of_the_answers_own_is_named():
    def nested(x, y, lanes):
        def x_then_y():
            return x @ x, lanes[1].submit(torch.matmul, y, y)

        xx, fy = lanes[0].submit(x_then_y).result()
        return xx, fy.result()

    assert_fails(
        "02.concurrency",
        nested,
        "lanes[1] was submitted to from inside the function you submitted to lanes[0]",
    )

    def helper_thread(x, y, lanes):
        box = {}
        helper = threading.Thread(target=lambda: box.update(y=lanes[1].submit(torch.mm, y, y)))
        helper.start()
        fx = lanes[0].submit(torch.mm, x, x)
        helper.join()
        return fx.result(), box["y"].result()

    assert_fails(
        "02.concurrency",
        helper_thread,
        "lanes[1] was submitted to from a thread of your own, not from your function's thread",
    )


def test_keyword_arguments_to_submit_are_refused_as_the_chapters_lane_refuses_them():
    def keywords(x, y, lanes):
        fx = lanes[0].submit(torch.matmul, input=x, other=x)
        fy = lanes[1].submit(torch.matmul, input=y, other=y)
        return fx.result(), fy.result()

    assert_fails(
        "02.concurrency",
        keywords,
        "lanes[0].submit got keyword arguments (input=, other=): a lane's submit takes the "
        "function's arguments by position, submit(fn, *args), as the chapter's "
        "CudaLane.submit(self, fn, *args) does, which raises TypeError on keywords. Pass them "
        "by position: lanes[0].submit(torch.matmul, a, a), or bind them first with "
        "functools.partial",
    )


def test_a_job_may_store_its_product_but_every_future_is_waited_on():
    def stored(x, y, lanes):
        out = {}

        def square(key, m):
            out[key] = m @ m

        futures = [lanes[0].submit(square, "x", x), lanes[1].submit(square, "y", y)]
        for future in futures:
            future.result()
        return out["x"], out["y"]

    assert_passes("02.concurrency", stored)

    def stored_after_a_copy(x, y, lanes):  # the first tensor a job makes is not its product
        out = {}

        def square(key, m):
            a = m.clone()
            out[key] = a @ a

        futures = [lanes[0].submit(square, "x", x), lanes[1].submit(square, "y", y)]
        for future in futures:
            future.result()
        return out["x"], out["y"]

    assert_passes("02.concurrency", stored_after_a_copy)

    def last_only(x, y, lanes):
        out = {}

        def square(key, m):
            out[key] = m @ m

        lanes[0].submit(square, "x", x)
        lanes[1].submit(square, "y", y).result()
        return out["x"], out["y"]

    assert_fails(
        "02.concurrency", last_only, "lanes[0]'s future was never waited on (its .result()"
    )

    def value_read(x, y, lanes):  # the chapter's CudaFuture.value: the tensor, not waited for
        fx, fy = lanes[0].submit(torch.mm, x, x), lanes[1].submit(torch.mm, y, y)
        return fx.value, fy.value

    assert_fails("02.concurrency", value_read, "lanes[0]'s future was never waited on")


def test_the_same_lane_given_twice_gives_both_products():
    def by_lane(x, y, lanes):
        futures = {
            lane: lane.submit(torch.matmul, m, m) for lane, m in zip(lanes[:2], (x, y), strict=True)
        }
        return futures[lanes[0]].result(), futures[lanes[1]].result()

    assert_fails("02.concurrency", by_lane, "given the same lane twice (lanes[0] is lanes[1]")


def test_two_lanes_of_one_gpu_must_each_get_a_product_even_where_the_answer_raised():
    # round 27: given two lanes on cuda:0, an answer ran both products on lanes[0]
    from d2lgpu.checks._ch02_order import check_both_lanes
    from d2lgpu.checks._util import CheckFailed

    def launches(*lanes):
        return [("launch", lane, None) for lane in lanes]

    check_both_lanes(launches("lanes[1]", "lanes[0]"), "given two lanes", returned=True)
    check_both_lanes(launches("lanes[0]"), "given two lanes", returned=False)  # CUDA refused
    with pytest.raises(CheckFailed) as raised:
        check_both_lanes(launches("lanes[0]", "lanes[0]"), "given two lanes", returned=False)
    assert str(raised.value).startswith(
        "given two lanes, your function launched its products on lanes[0], lanes[0]: x @ x "
        "goes to lanes[0] and y @ y to lanes[1] whatever the lanes are. Two streams of one "
        "GPU run two products at once too"
    )
    with pytest.raises(CheckFailed, match="launched its products on no lane: x @ x"):
        check_both_lanes([], "given two lanes", returned=True)


def test_concurrency_names_lanes_shut_down_and_inputs_changed_in_place():
    def shuts_down(x, y, lanes):
        out = run_concurrently(x, y, lanes)
        for lane in lanes:
            if hasattr(lane, "shutdown"):  # the caller's ThreadPoolExecutor, refusing work after
                lane.shutdown(wait=True)
        return out

    assert assert_fails("02.concurrency", shuts_down).hint == (
        "your function called lanes[0].shutdown(): the lanes are the caller's, who submits to "
        "them again (a ThreadPoolExecutor shut down refuses new work: RuntimeError, cannot "
        "schedule new futures after shutdown). Leave them running; whoever made them shuts "
        "them down"
    )

    def in_place(x, y, lanes):  # each product written back into its input
        fx = lanes[0].submit(lambda: x.copy_(x @ x))
        fy = lanes[1].submit(lambda: y.copy_(y @ y))
        return fx.result(), fy.result()

    assert assert_fails("02.concurrency", in_place).hint == (
        "your function changed its input x in place (an in-place operation, copy_ or out=, on "
        "it): x and y are the caller's, who may use them again. Compute each product into a new "
        "tensor (x @ x) and leave the inputs as they were"
    )
    assert_passes("02.concurrency", lambda x, y, lanes: list(run_concurrently(x, y, lanes)))


def test_a_futures_result_given_arguments_is_refused_as_the_gpu_lanes_future_refuses_them():
    from d2lgpu.checks._ch02_futures import LateLane, no_arguments
    from d2lgpu.checks._ch02_lanes import LaneLog, LoggingLane

    no_arguments((), {})
    lane = LoggingLane("lanes[0]", LaneLog())
    for future in (lane.submit(torch.add, 1, 2), LateLane().submit(torch.add, 1, 2)):
        with pytest.raises(TypeError) as raised:
            future.result(timeout=600)
        assert str(raised.value) == (
            "result(timeout=600): a lane's future promises result() with no arguments, and the "
            "lane for GPUs, CudaFuture, takes none (a timeout is ThreadPoolExecutor's only, and "
            "fails there). Call result()"
        )
        with pytest.raises(TypeError, match=r"^result\(5, 'x'\): "):
            future.result(5, "x")
        assert future.result() == 3
    assert [event for event, *_ in lane.log] == ["launch", "wait"]  # the refused ones: no wait


def test_one_job_computing_both_products_as_a_batch_is_named_as_such():
    def batched(x, y, lanes):
        both = torch.stack((x, y))
        xx, yy = lanes[0].submit(torch.bmm, both, both).result().unbind(0)
        return xx, yy

    assert_fails(
        "02.concurrency", batched, "only one job was submitted (to lanes[0])",
        "computed both products at once (a (2, 64, 64) batch", "y @ y on lanes[1]",
    )  # fmt: skip

    def pair(x, y, lanes):
        return lanes[0].submit(lambda: (x @ x, y @ y)).result()

    assert_fails("02.concurrency", pair, "computed both products (one job returning both)")

    from d2lgpu.checks.ch02_concurrency import _one_launch_hint

    xx, yy = torch.eye(3), 2 * torch.eye(3)
    assert "neither x @ x nor y @ y" in _one_launch_hint("lanes[0]", torch.zeros(3, 3), xx, yy)
    assert "y @ y was computed in the caller's" in _one_launch_hint("lanes[0]", xx, xx, yy)
    assert "x @ x was computed in the caller's" in _one_launch_hint("lanes[1]", yy, xx, yy)


def test_products_queued_on_the_lanes_streams_instead_of_submitted_are_named():
    def on_lane_streams(x, y, lanes):
        streams = [getattr(lane, "stream", None) for lane in lanes]
        if all(s is not None for s in streams):
            out = []
            for s, m in zip(streams, (x, y), strict=False):
                with torch.cuda.stream(s):
                    out.append(m @ m)
            for s in streams:
                s.synchronize()
            return tuple(out)
        fx, fy = lanes[0].submit(torch.matmul, x, x), lanes[1].submit(torch.matmul, y, y)
        return fx.result(), fy.result()

    assert_fails(
        "02.concurrency", on_lane_streams, "lane.stream, as the chapter's CudaLane",
        "under torch.cuda.stream(lanes[0].stream)", "(wait_stream)", "(record_stream)",
    )  # fmt: skip
