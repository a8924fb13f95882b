"""Chapter 7's rules on what a right answer costs, and the round-19 hints, without Triton.

Each rule is fed by hand: a torch operation run from this file (the learner's code, for the
watch) under :func:`watched_torch_ops`, a :class:`Call` of launches and grids, recorded stores.
The Triton answers themselves are graded in ``tests/test_redteam.py`` and
``tests/test_checks_ch07.py``.
"""

import re

import pytest
import torch

from d2lgpu.checks._ch07_answers import coverage_hint, require_inputs_untouched, require_one_pass
from d2lgpu.checks._ch07_diagnoses import rms, rms_norm_diagnosis
from d2lgpu.checks._ch07_interpreter import Watch
from d2lgpu.checks._ch07_passes import (
    Call,
    device_hint,
    launch_hint,
    ops_hint,
    watched_torch_ops,
)
from d2lgpu.grading import CheckFailed


def stored(*written):
    """A Watch that saw each (tensor, flat indices) pair stored to."""
    import numpy as np

    watch = Watch()
    for t, indices in written:
        watch.stores.append(t.data_ptr() + np.asarray(indices, dtype=np.int64) * t.element_size())
    return watch


def ops_of(fn, *args):
    """The costly operations ``fn(*args)`` ran from this file: (name, kind) pairs."""
    watch = Watch()
    with watched_torch_ops(watch, args) as call:
        fn(*args)
    return [(name, kind) for name, kind, _ in call.ops]


X = torch.randn(40, 50)


@pytest.mark.parametrize(
    "fn, found",
    [
        (lambda x: x.clamp(min=0), [("clamp", "compute")]),
        (lambda x: torch.relu(x) * 2, [("relu", "compute")]),
        (lambda x: x.half(), [("half", "cast")]),
        (lambda x: x.to(torch.float64), [("to", "cast")]),
        (lambda x: torch.zeros(x.shape), [("zeros", "fill")]),
        (lambda x: torch.zeros(1), [("zeros", "fill")]),  # never needed, however small
        (lambda x: torch.empty_like(x).zero_(), [("zero_", "fill")]),
        (lambda x: x.clone(), [("clone", "copy")]),
        (lambda x: x.clone(memory_format=torch.contiguous_format), [("clone", "copy")]),
        (lambda x: torch.empty_like(x).copy_(x), [("copy_", "copy")]),
        (lambda x: x.relu_(), [("relu_", "compute")]),
    ],
)
def test_a_pass_over_memory_outside_the_kernel_is_named(fn, found):
    assert ops_of(fn, X.clone()) == found


@pytest.mark.parametrize(
    "fn",
    [
        lambda x: torch.empty(x.shape, dtype=x.dtype),
        lambda x: torch.empty_like(x),
        lambda x: torch.empty_strided(x.shape, x.stride()),
        lambda x: x.new_empty(x.shape),
        lambda x: (x.view(-1), x.reshape(-1), x.flatten(), x.t(), x[3], x.contiguous()),
        lambda x: (x.float(), x.to(torch.float32), x.to(x.device), x.detach()),
        lambda x: x.t().contiguous(),  # a contiguous copy of a tensor that is not
        lambda x: x.t().reshape(-1),
        lambda x: x.t().clone(memory_format=torch.contiguous_format),
        lambda x: (x.shape, x.stride(0), x.numel(), x.is_contiguous(), x.data_ptr(), repr(x)),
        lambda x: x[0].clamp(min=0),  # a row: smaller than the input
    ],
)
def test_allocations_views_no_ops_and_contiguous_copies_cost_nothing(fn):
    assert ops_of(fn, X) == []


def test_only_the_learners_operations_outside_a_launch_are_watched():
    watch = Watch()
    with watched_torch_ops(watch, (X,)) as call:
        watch.launching = 1  # Triton copies a launch's tensors itself
        X.clone()
        watch.launching = 0
        _course_op(X)  # the course's own code
    assert call.ops == []
    with watched_torch_ops(watch, (X,)) as call:
        X.clamp(min=0)
        X.clone()  # only the first is kept
    ((name, kind, line),) = call.ops
    assert (name, kind, line.name) == (
        "clamp",
        "compute",
        "test_only_the_learners_operations_outside_a_launch_are_watched",
    )


def _course_op(x):
    from d2lgpu.checks._ch07_answers import random_input

    # torch.randn and a multiply, run by d2lgpu's code: not the learner's
    return random_input(x.shape, torch.Generator().manual_seed(0), scale=2.0)


def test_an_operation_is_named_with_the_learners_line_and_why_it_costs():
    watch = Watch()
    with watched_torch_ops(watch, (X,)) as call:
        X.float().half()
    hint = ops_hint(call, "relu_mul", "n = 1000")
    assert hint.startswith(
        "for n = 1000, relu_mul ran `half` (in your function "
        "test_an_operation_is_named_with_the_learners_line_and_why_it_costs, line "
    )
    assert "X.float().half()`), which made a copy in another dtype: a cast reads" in hint
    assert "tl.load(...).to(tl.float32)" in hint
    assert ops_hint(Call(), "relu_mul", "n = 1000") is None


def test_launches_and_grids_are_counted_per_call():
    watch = Watch()
    with watched_torch_ops(watch, (X,)) as call:
        watch.launches += 2
        watch.grids += [(4, 1, 1), (4, 1, 1)]
    assert (call.launches, call.grids) == (2, [(4, 1, 1), (4, 1, 1)])
    fuse = (
        "each launch reads its inputs from memory and writes its results back, so a second "
        "kernel adds a pass over memory ({}). Fuse them: one kernel, launched once, loads the "
        "inputs, computes and stores the result"
    )
    assert launch_hint(call, "relu_mul", "n = 4", 4, "element") == (
        "for n = 4, relu_mul launched 2 kernels in one call: "
        + fuse.format("a relu kernel then a multiply kernel move 5 n floats, one fused kernel 3 n")
    )
    rows = launch_hint(Call(3, [(1, 1, 1)] * 3), "rms_norm", "a 3 x 8 matrix", 3, "row")
    assert rows == (
        "for a 3 x 8 matrix, rms_norm launched 3 kernels in one call: a Python loop with one "
        "launch per row, each a grid of one program. Launch the kernel once, with a grid of "
        "n_rows programs (kernel[(n_rows,)]), and let program tl.program_id(0) handle its row"
    )
    pair = launch_hint(Call(2, [(1, 1, 1)] * 2), "rms_norm", "a 1 x 1 matrix", 1, "row")
    assert pair == "for a 1 x 1 matrix, rms_norm launched 2 kernels in one call: " + fuse.format(
        "a kernel for the sums of squares then one for the division read x twice"
    )
    one = launch_hint(Call(1, [(1, 1, 1)]), "relu_mul", "a 37 x 129 matrix", 4773, "element")
    assert one == (
        "for a 37 x 129 matrix, relu_mul ran all 4773 elements as one program (a grid of 1: a "
        "block as long as the tensor, or one program looping over the blocks): one program runs "
        "on one of the GPU's multiprocessors while the others idle, and Triton refuses a block "
        "of more than 2**20 elements. Use a fixed BLOCK (say 1024) and a grid of "
        "triton.cdiv(n, BLOCK) programs"
    )
    # a fixed BLOCK of 4096 runs n = 4096 as one program, rightly; one element more is two
    assert launch_hint(Call(1, [(1, 1, 1)]), "relu_mul", "n = 4096", 4096, "element") is None
    assert launch_hint(Call(1, [(1, 1, 1)]), "relu_mul", "n = 4097", 4097, "element")
    # a grid's programs are the product of its three sizes: 1 x 2 x 2 is 4 programs
    assert launch_hint(Call(1, [(1, 2, 2)]), "relu_mul", "n = 4096", 4096, "element") is None
    assert launch_hint(Call(1, [(1, 1, 1)]), "relu_mul", "n = 1000", 1000, "element") is None
    assert launch_hint(Call(1, [(4, 1, 1)]), "relu_mul", "n = 4096", 4096, "element") is None
    assert launch_hint(Call(1, [(1, 1, 1)]), "rms_norm", "1 row", 1, "row") is None


def test_a_right_result_is_refused_for_its_cost_in_order():
    out = torch.empty(8)
    watch = stored((out, range(8)))
    watch.calls = [Call(1, [(1, 1, 1)], [("zeros", "fill", _line())])]
    with pytest.raises(CheckFailed, match=r"ran `zeros` .* an extra write pass"):
        require_one_pass(out, watch, "relu_mul", "n = 8", 8, "element")
    watch.calls = [Call(2, [(1, 1, 1)] * 2)]
    with pytest.raises(CheckFailed, match="never wrote"):  # its output first
        require_one_pass(torch.empty(8), watch, "relu_mul", "n = 8", 8, "element")
    with pytest.raises(CheckFailed, match="launched 2 kernels"):
        require_one_pass(out, watch, "relu_mul", "n = 8", 8, "element")
    watch.calls = [Call(1, [(1, 1, 1)])]
    require_one_pass(out, watch, "relu_mul", "n = 8", 8, "element")


def _line():
    import sys

    from d2lgpu.checks._util import learner_line

    return learner_line(sys._getframe())


def test_an_output_that_is_the_input_itself_is_named():
    x = torch.randn(6)
    watch = stored((x, range(6)))
    with pytest.raises(CheckFailed) as failed:
        require_inputs_untouched({"x": x}, {"x": x.clone()}, watch, "rms_norm", "n = 6", x)
    assert str(failed.value) == (
        "for n = 6, the tensor rms_norm returned is x itself (the same memory), so your kernel "
        "stored into x, an input, and overwrote it: x.contiguous() returns x itself, not a "
        "copy, when x is already contiguous (as do view and reshape). Make a new output for "
        "the result, torch.empty_like(x) after x = x.contiguous()"
    )
    with pytest.raises(CheckFailed, match="your kernel stored into x, an input: store"):
        require_inputs_untouched({"x": x}, {"x": x}, watch, "rms_norm", "n = 6", torch.empty(6))


def test_a_chunk_loop_whose_offsets_do_not_move_is_named():
    out = torch.empty(2, 10)
    hint = coverage_hint(out, stored((out, [*range(4)] * 3 + [*range(10, 20)])), "w", "row")
    assert hint == (
        "for w, in row 0 the first 4 columns were written 3 times each and the other 6 never: "
        "your loop over the row's chunks does not move its offsets. Each chunk starts where "
        "the last ended: cols = start + tl.arange(0, BLOCK) for start in range(0, n_cols, "
        "BLOCK), masked by cols < n_cols, in both the sum and the store"
    )


def test_rms_norm_results_are_diagnosed_as_columns_float16_sums_and_a_default_eps():
    x = torch.randn(4, 6)
    by_columns = rms(x.t().contiguous(), 1e-6).t().contiguous()  # a copy: never written
    hint = rms_norm_diagnosis(by_columns, x, 1e-6, stored(), "a 4 x 6 matrix")
    assert hint.startswith("for a 4 x 6 matrix, you normalized each column (the mean of x * x")
    written = by_columns.clone()
    assert "each column" in rms_norm_diagnosis(written, x, 1e-6, stored((written, range(24))), "w")
    stranger = rms(x, 1e-6) + 1
    assert "returned a tensor your kernel never wrote" in rms_norm_diagnosis(
        stranger, x, 1e-6, stored(), "w"
    )
    half = (torch.randn(2, 300) * 200).half()
    zeros = torch.zeros_like(half)  # x / inf: squares summed in float16
    hint = rms_norm_diagnosis(zeros, half, 1e-6, stored((zeros, range(600))), "f16")
    assert "overflows float16" in hint and "tl.load(...).to(tl.float32)" in hint
    tiny = torch.randn(3, 50) * 1e-4
    got = rms(tiny, 1e-5)
    assert rms_norm_diagnosis(got, tiny, 1e-6, stored((got, range(150))), "t", default=True) == (
        "for t, your rms_norm used eps = 1e-05: the exercise's signature gives eps a default of "
        "1e-6, def rms_norm(x, eps=1e-6); keep that default"
    )
    assert "use the eps you are given (here 1e-06)" in rms_norm_diagnosis(
        got, tiny, 1e-6, stored((got, range(150))), "t"
    )
    assert rms(half, 1e-6).dtype == torch.float16 and torch.isfinite(rms(half, 1e-6)).all()


def test_rms_norm_names_a_sum_for_the_mean_and_a_centered_row():
    x = torch.randn(4, 6) * 3
    by_sum = x / torch.sqrt((x * x).sum(dim=1, keepdim=True) + 1e-6)
    hint = rms_norm_diagnosis(by_sum, x, 1e-6, stored((by_sum, range(24))), "a 4 x 6 matrix")
    assert hint == (
        "for a 4 x 6 matrix, you divided by the root of the sum of squares, not of their mean: "
        "divide the sum by the number of columns (6), x / sqrt(sum(x * x) / n_cols + eps)"
    )
    centered = x - x.mean(dim=1, keepdim=True)
    layer_norm = centered / torch.sqrt((centered * centered).mean(dim=1, keepdim=True) + 1e-6)
    hint = rms_norm_diagnosis(layer_norm, x, 1e-6, stored((layer_norm, range(24))), "w")
    assert hint == (
        "for w, you subtracted each row's mean first, as LayerNorm does: RMSNorm does not center "
        "the row; divide x itself by sqrt(mean(x * x) + eps)"
    )


def test_rms_norm_names_eps_used_as_a_floor():
    tiny = torch.randn(5, 333) * 1e-4  # mean squares far below eps
    mean = (tiny * tiny).mean(dim=1, keepdim=True)
    floor = tiny / torch.sqrt(torch.clamp(mean, min=1e-5))
    hint = rms_norm_diagnosis(floor, tiny, 1e-5, stored((floor, range(1665))), "tiny rows")
    assert hint == (
        "for tiny rows, you used eps as a floor (a max with the mean square), not added to it: "
        "x / sqrt(mean(x * x) + eps). The two differ on rows whose mean square is near eps or "
        "below it, as here"
    )


def test_what_an_operation_costs_is_read_from_each_of_its_results_in_turn():
    from d2lgpu.checks._ch07_passes import _kind

    n = 64
    x, xt = torch.ones(n), torch.ones(8, 8).t()
    new = torch.empty(n)
    assert _kind("zero_", [x], [x], n) == "fill"  # in place, however small
    assert _kind("mul_", [x], [x], n) == "compute" and _kind("copy_", [x], [x], n) == "copy"
    assert _kind("empty_like", [x], [new], n) is None
    # a view first, or a result too small to count, then a new tensor: the new one counts
    assert _kind("split_and_add", [x], [x[:], new], n) == "compute"
    assert _kind("split_and_add", [x], [torch.empty(1), new], n) == "compute"
    # a contiguous copy of a transposed input is free; a cast after it is not
    assert _kind("to", [xt], [xt.contiguous(), xt.double()], n) == "cast"
    assert _kind("contiguous", [xt], [xt.contiguous()], n) is None
    assert _kind("clone", [x], [new], n) == "copy"
    # another dtype from an operation that is no cast is a computation, not a cast
    assert _kind("add", [x], [torch.empty(n, dtype=torch.float64)], n) == "compute"
    assert _kind("randn", [], [new], n) == "compute"  # no source: a computation


def _made(fn, x):
    """What ``fn(x)`` returned, its Call, and a Watch whose last launch was given it."""
    watch = Watch()
    with watched_torch_ops(watch, (x,)) as call:
        out = fn(x)
    return out, call, watch


@pytest.mark.parametrize(
    "fn, op",
    [
        (lambda x: torch.empty(x.shape, dtype=x.dtype), "empty"),
        (lambda x: torch.empty(*x.shape, dtype=x.dtype, device=None), "empty"),
        (lambda x: torch.empty_strided(x.shape, (x.shape[1], 1), dtype=x.dtype), "empty_strided"),
        (lambda x: torch.zeros(x.shape), "zeros"),
        (lambda x: torch.full(x.shape, 0.0)[:, :10], "full"),  # a view of it returned
    ],
)
def test_a_tensor_made_for_the_kernel_with_no_device_is_named_first(fn, op):
    # Right on this machine, where every tensor is on the CPU; on a GPU the kernel would be
    # given a CPU tensor beside x's, which Triton refuses
    out, call, watch = _made(fn, X.clone())
    hint = device_hint(call, out, watch, "rms_norm", "a 40 x 50 matrix")
    assert hint is not None and hint.startswith(
        f"for a 40 x 50 matrix, rms_norm made a tensor for your kernel with torch.{op} (in "
    ), hint
    assert "and no device=, so it is on the CPU whatever x's device" in hint, hint
    assert hint.endswith("device=x.device, or torch.empty_like of a contiguous x"), hint
    stored_all = stored((out, range(out.numel())))
    stored_all.calls = [call]
    call.launches, call.grids = 1, [(40, 1, 1)]
    with pytest.raises(CheckFailed, match=f"torch.{op} .* and no device="):  # before its cost
        require_one_pass(out, stored_all, "rms_norm", "a 40 x 50 matrix", 40, "row")


@pytest.mark.parametrize(
    "fn",
    [
        lambda x: torch.empty(x.shape, dtype=x.dtype, device=x.device),
        lambda x: torch.empty(x.shape, dtype=x.dtype, device=str(x.device)),
        lambda x: torch.empty(x.shape, device=x.device.type),
        lambda x: torch.empty_like(x),
        lambda x: x.new_empty(x.shape),
        lambda x: (torch.empty(3), torch.empty_like(x))[1],  # a scratch the kernel never got
    ],
)
def test_a_tensor_made_on_x_s_device_or_never_given_to_the_kernel_is_not_named(fn):
    out, call, watch = _made(fn, X.clone())
    assert device_hint(call, out, watch, "rms_norm", "w") is None


@pytest.mark.parametrize(
    "fn",
    [
        lambda x: torch.empty(x.shape, dtype=x.dtype).to(x.device),
        lambda x: torch.empty(x.shape, dtype=x.dtype).to(device=x.device),
        lambda x: torch.empty(x.shape).to(x),  # x's device and dtype
        lambda x: torch.empty(x.shape).to(str(x.device), non_blocking=True),
    ],
)
def test_a_tensor_made_with_no_device_then_moved_is_named_for_the_copy(fn):
    out, call, watch = _made(fn, X.clone())
    hint = device_hint(call, out, watch, "relu_mul", "n = 2000")
    assert hint.startswith("for n = 2000, relu_mul made a tensor for your kernel with torch.empty ")
    assert "and no device=, then moved it: on a GPU it is made on the CPU and copied over" in hint
    assert "Triton refuses" not in hint, hint
    same, call, watch = _made(lambda x: torch.empty(x.shape).to(torch.float32), X.clone())
    assert "Triton refuses" in device_hint(call, same, watch, "relu_mul", "w")  # a dtype: no move


@pytest.mark.parametrize(
    "fn",
    [
        lambda x: torch.empty(x.shape, dtype=x.dtype, device="cpu"),
        lambda x: torch.empty(x.shape, device=torch.device("cpu")),
        lambda x: torch.zeros(x.shape, device=torch.get_default_device()),
        lambda x: torch.empty(
            x.shape,
            device="cpu",  # a line below the call's first
        ),
    ],
)
def test_a_tensor_made_on_a_device_written_in_is_named(fn):
    # "cpu" is x's device on this machine, as the default device is: only the learner's line
    # tells that it was written in, and would stay the CPU where x is on a GPU
    out, call, watch = _made(fn, X.clone())
    hint = device_hint(call, out, watch, "relu_mul", "n = 2000")
    assert re.match(
        r"for n = 2000, relu_mul made a tensor for your kernel with torch\.(empty|zeros) "
        r"and a device written in \(in your function <lambda>, line \d+",
        hint,
    ), hint
    assert "Make it on x's device: device=x.device" in hint, hint


def test_each_device_hint_in_full_names_the_learners_line():
    def no_device(x):
        torch.empty(3)  # a scratch the kernel never gets, looked past
        return torch.empty(x.shape, dtype=x.dtype)

    out, call, watch = _made(no_device, X.clone())
    assert device_hint(call, out, watch, "rms_norm", "w") == (
        "for w, rms_norm made a tensor for your kernel with torch.empty (in your function "
        f"no_device, line {no_device.__code__.co_firstlineno + 2}: `return torch.empty(x.shape, dtype=x.dtype)`) and no device=, so it "
        "is on the CPU whatever x's device: on a GPU your kernel gets a CPU tensor beside x's, "
        'which Triton refuses ("cannot be accessed from Triton (cpu tensor?)"). Make it on '
        "x's device: device=x.device, or torch.empty_like of a contiguous x"
    )

    def moved(x):
        return torch.empty(x.shape).to(x.device)

    out, call, watch = _made(moved, X.clone())
    assert device_hint(call, out, watch, "rms_norm", "w") == (
        "for w, rms_norm made a tensor for your kernel with torch.empty (in your function "
        f"moved, line {moved.__code__.co_firstlineno + 1}: `return torch.empty(x.shape)"
        ".to(x.device)`) and no device=, then moved "
        "it: on a GPU it is made on the CPU and copied over, a pass over memory for values your "
        "kernel overwrites. Make it on x's device at once: device=x.device, or "
        "torch.empty_like of a contiguous x"
    )

    def written(x):
        return torch.empty(x.shape, device="cpu")

    out, call, watch = _made(written, X.clone())
    assert device_hint(call, out, watch, "rms_norm", "w") == (
        "for w, rms_norm made a tensor for your kernel with torch.empty and a device written in "
        f"(in your function written, line {written.__code__.co_firstlineno + 1}: `return "
        'torch.empty(x.shape, device="cpu")`): it '
        "is there whatever x's device, so on another machine (a GPU, or another of its GPUs) "
        "your kernel gets it beside x's on another device. Make it on x's device: "
        "device=x.device, or torch.empty_like of a contiguous x"
    )


def test_only_the_learners_own_statement_is_read_for_a_device_written_in():
    def placed(x):
        out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
        noted = dict(device="cpu")  # another statement: not the call's
        return out if noted else None

    out, call, watch = _made(placed, X.clone())
    assert device_hint(call, out, watch, "rms_norm", "w") is None


def test_a_tensor_with_no_device_given_to_the_launch_is_named_though_not_returned():
    x = X.clone()

    def fn(x):
        return torch.empty(x.shape[0]), torch.empty_like(x)

    (scratch, out), call, watch = _made(fn, x)
    assert device_hint(call, out, watch, "rms_norm", "w") is None
    watch.launch([x, scratch, out])
    assert "with torch.empty (" in device_hint(call, out, watch, "rms_norm", "w")


def test_rms_norm_names_a_count_off_by_one_and_a_value_rounded_to_16_bits():
    x = torch.randn(4, 300, generator=torch.Generator().manual_seed(3))
    squares = (x * x).sum(dim=1, keepdim=True)
    for count in (299, 301):
        got = x / torch.sqrt(squares / count + 1e-6)
        assert rms_norm_diagnosis(got, x, 1e-6, stored((got, range(1200))), "w") == (
            f"for w, you divided the sum of squares by {count}, not by the number of columns "
            "(300): mean(x * x) is the sum over the row divided by n_cols"
        )
    for low in (torch.float16, torch.bfloat16):  # the sum of squares rounded to 16 bits
        got = x / torch.sqrt(squares.to(low).float() / 300 + 1e-6)
        assert not torch.allclose(got, rms(x, 1e-6), rtol=1e-4, atol=1e-5)  # the checker's
        hint = rms_norm_diagnosis(got, x, 1e-6, stored((got, range(1200))), "w")
        assert hint.startswith("for w, your result is within 1% of x / sqrt(mean(x * x) + eps) "
                               "but not within float32's precision"), (low, hint)  # fmt: skip
    # rows far larger than any eps: every eps agrees, so none is named as the one used
    one = torch.tensor([[0.7]])
    got = one / torch.sqrt(one * one * (1 + 2e-3))
    hint = rms_norm_diagnosis(got, one, 1e-6, stored((got, [0])), "a 1 x 1 matrix")
    assert "within 1%" in hint and "the eps you are given" not in hint, hint
    # a float16 x keeps its own hint, and a result far off the generic one
    far = rms(x, 1e-6) * 1.1
    assert "differs from" in rms_norm_diagnosis(far, x, 1e-6, stored((far, range(1200))), "w")


def test_an_output_made_as_a_copy_of_x_is_named_as_a_copy_into_another_tensor():
    watch, x = Watch(), X.clone()
    with watched_torch_ops(watch, (x,)) as call:
        torch.empty_like(x).copy_(x)
    hint = ops_hint(call, "rms_norm", "w")
    assert "which copied a whole tensor into another: an extra read and write" in hint, hint
    assert "x.contiguous(), which returns x itself" not in hint, hint


def test_rms_norm_hints_in_full_for_a_count_on_tiny_rows_zeros_and_a_result_never_written():
    def said(out, x, written=True):
        watch = stored((out, range(out.numel()))) if written else stored()
        return rms_norm_diagnosis(out, x, 1e-6, watch, "w")

    tiny = torch.randn(4, 300, generator=torch.Generator().manual_seed(4)) * 1e-3  # eps tells
    got = tiny / torch.sqrt((tiny * tiny).sum(dim=1, keepdim=True) / 299 + 1e-6)
    assert said(got, tiny).startswith("for w, you divided the sum of squares by 299, not by")
    two = torch.tensor([[2.0, 3.0]])
    assert said(torch.zeros_like(two), two) == (
        "for w, your result is 0 everywhere: the sum of squares came out infinite, as where the "
        "masked lanes load other=float('-inf') (or inf), whose squares are inf. Give the masked "
        "lanes a value that adds nothing to a sum, other=0.0"
    )
    x = torch.randn(3, 8, generator=torch.Generator().manual_seed(5))
    assert said(rms(x, 1e-6) + 1, x, written=False) == (
        "for w, rms_norm returned a tensor your kernel never wrote: it launched the kernel, but "
        "the result is not the kernel's output (a result computed again with torch operations, "
        "such as x * torch.rsqrt((x * x).mean(1, keepdim=True) + eps), or a copy). Return the "
        "tensor your kernel stored into, made in x's dtype (torch.empty(x.shape, "
        "dtype=x.dtype, device=x.device))"
    )
    half = (torch.randn(2, 300, generator=torch.Generator().manual_seed(6)) * 200).half()
    assert said(torch.zeros_like(half), half) == (
        "for w, your result is wrong for a float16 x (right for float32): x * x overflows "
        "float16 for values above 256 (its largest value is 65504), and the sum of squares "
        "loses precision. Convert what you load to float32, tl.load(...).to(tl.float32), "
        "square and sum in float32; tl.store converts to the output's dtype"
    )


def test_a_load_of_the_same_address_twice_is_counted_once_per_address():
    import numpy as np

    watch, x = Watch(), torch.zeros(8)
    watch.extents = [(x.data_ptr(), x.data_ptr() + 32)]
    assert watch.loaded_again() == 0  # nothing loaded yet
    watch.access(x.data_ptr() + np.arange(4) * 4, None, 4, "load")
    watch.access(x.data_ptr() + np.arange(4, 8) * 4, None, 4, "load")
    watch.access(x.data_ptr() + np.arange(4) * 4, np.arange(4) < 3, 4, "store")  # a store
    assert watch.loaded_again() == 0
    # elements 2 and 3 again, and 1 only where the mask lets it
    watch.access(x.data_ptr() + np.arange(1, 4) * 4, np.array([True, True, True]), 4, "load")
    watch.access(x.data_ptr() + np.arange(5, 7) * 4, np.array([False, False]), 4, "load")
    assert watch.loaded_again() == 3
    watch.loads.clear()
    assert watch.loaded_again() == 0


def test_relu_mul_names_a_value_rounded_to_16_bits_and_compares_in_x_s_dtype():
    from d2lgpu.checks._ch07_answers import agrees
    from d2lgpu.checks._ch07_diagnoses import relu_mul_diagnosis

    gen = torch.Generator().manual_seed(5)
    x, y = torch.randn(1000, generator=gen), torch.randn(1000, generator=gen).half()
    got = (torch.relu(x).half() * y).float()  # the product in y's float16
    assert not agrees(got, torch.relu(x) * y)
    hint = relu_mul_diagnosis(got, x, y, stored((got, range(1000))), "w", None)
    assert hint == (
        "for w, your result is within 1% of relu(x) * y but not within float32's precision: a "
        "value was rounded to 16 bits on the way (x, relu(x) or the product converted to y's "
        "float16, .to(y_ptr.dtype.element_ty) or .to(tl.float16)). A float32 times a float16 "
        "is a float32 in Triton, as in PyTorch: keep it, and tl.store converts to the output's "
        "dtype"
    ), hint
    # a result the kernel never wrote, equal to no formula: named with the function and case
    never = torch.randn(1000, generator=gen)
    hint = relu_mul_diagnosis(never, x, x, stored(), "w", None)
    assert hint.startswith("for w, relu_mul returned a tensor your kernel never wrote"), hint
    # a 1 where x < 0 is named as relu's zero missed, as any other value there is
    ones = torch.relu(x) * x
    first_negative = int((x < 0).nonzero()[0, 0])
    ones[first_negative] = 1.0
    hint = relu_mul_diagnosis(ones, x, x, stored((ones, range(1000))), "w", None)
    assert hint.startswith("for w, where x < 0 relu(x) * y is 0"), hint
    # a float16 x with a float32 y: the float32 formula is compared in x's dtype, not refused
    x16, y32 = x.half(), y.float()
    right = (torch.relu(x16).float() * y32).half()
    assert agrees(right, torch.relu(x16) * y32)
    wrong = torch.relu(x16 * y32).half()
    hint = relu_mul_diagnosis(wrong, x16, y32, stored((wrong, range(1000))), "w", None)
    assert hint.startswith("for w, you computed relu(x * y), not relu(x) * y"), hint
    far = right * 1.5
    assert "16 bits" not in relu_mul_diagnosis(far, x16, y32, stored((far, range(1000))), "w", None)
    # y rounded to x's float16 before the product: named, where the float32 product is not
    y = torch.randn(1000, generator=gen)  # float32 values, most not a float16's
    rounded = torch.relu(x16) * y.half()
    assert not agrees(rounded, torch.relu(x16) * y)
    hint = relu_mul_diagnosis(rounded, x16, y, stored((rounded, range(1000))), "w", None)
    assert hint.startswith(
        "for w, your result is relu(x) * y with y rounded to x's float16 before the product"
    ), hint
    # one unit off in float16: the values are shown with the digits that tell them apart
    one, half = torch.tensor([1.0156]).half(), torch.tensor([0.3545]).half()
    want = (one * half.float()).half()
    off = torch.nextafter(want.float(), torch.tensor(0.0)).half()  # rounded toward zero
    off = off if not torch.equal(off, want) else want - torch.tensor([2**-11]).half()
    hint = relu_mul_diagnosis(off, one, half.float(), stored((off, [0])), "w", None)
    said = hint.split("relu(x) * y = ")[1]
    shown, wrote = said.split(", you wrote ")
    assert shown != wrote, hint
