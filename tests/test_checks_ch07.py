"""The Triton exercises' checkers: correct kernels pass, realistic wrong ones fail with the right hint.

The answers live in ``tests/triton_answers.py``, graded in a fresh process with
``TRITON_INTERPRET=1`` set before triton is imported, as the exercise notebook
does; this process's triton stays as it is. Two correct answers there are written
differently from each other and from the solution notebook's (whose stored PASS
nbval compares), so each checker is tested against three solutions.
"""

import importlib.util
import json
import os
import re
import textwrap
from collections.abc import Mapping
from pathlib import Path

import pytest
import torch
from ddp_helpers.procs import fresh_python
from session_once import once_per_session

ROOT = Path(__file__).resolve().parent.parent

pytestmark = [
    pytest.mark.skipif(
        importlib.util.find_spec("triton") is None,
        reason="requires triton (PyTorch's Linux wheels bring it; none for macOS or Windows)",
    ),
    pytest.mark.slow,
]


# Started with Triton's interpreter on (`make mutation`'s "--triton-interpret": mutants reach only
# this process), each answer is graded here, in the test that reads it.
INTERPRETED_HERE = os.environ.get("TRITON_INTERPRET") == "1"


class GradedHere(Mapping):
    """What ``graded`` maps, each entry computed in this process when a test reads it."""

    def __init__(self):
        import triton_answers

        self.answers = triton_answers
        self.names = [*sorted(triton_answers.answers()), *triton_answers.CHECKS]

    def __getitem__(self, name):
        return self.answers.graded(name)

    def __iter__(self):
        return iter(self.names)

    def __len__(self):
        return len(self.names)


@pytest.fixture(scope="session")
def graded(tmp_path_factory):
    """Every answer graded, in a Python process of their own, once per session
    (session_once.py): name -> the result's status and hint."""
    if INTERPRETED_HERE:
        return GradedHere()

    def make(folder):
        env = dict(os.environ, CUDA_VISIBLE_DEVICES="", TRITON_INTERPRET="1", PYTHONPATH=str(ROOT))
        out = fresh_python(
            str(ROOT / "tests" / "triton_answers.py"),
            timeout=240,
            env=env,
        )
        assert out.returncode == 0, out.stderr
        return json.loads(out.stdout.strip().splitlines()[-1])

    return once_per_session(tmp_path_factory, "triton_answers", make)[1]


def fails(graded, name, *hint_parts):
    result = graded[name]
    assert result["status"] == "failed", (name, result)
    for part in hint_parts:
        assert part in result["hint"], f"{name}: {part!r} not in the hint: {result['hint']}"
    return result


RIGHT_RELU_MUL = ["relu_mul", "relu_mul_small_blocks", "relu_mul_partial"]
RIGHT_RMS_NORM = [
    "rms_norm",
    "rms_norm_contiguous",
    "rms_norm_callable",
    "rms_norm_scratch_on_the_default_device",  # a tensor with no device= the kernel never gets
]


@pytest.mark.parametrize("name", RIGHT_RELU_MUL)
def test_relu_mul_correct_answers_pass(graded, name):
    result = graded[name]
    assert result["status"] == "passed", result
    assert result["passed"] == [
        "relu(x) * y for n = 1, 1000, 4096, an odd n and a 37 x 129 matrix (fresh random "
        "inputs), in float16, and with one of x and y in float32 and the other in float16, "
        "through Triton's interpreter",
        "every load and store inside its tensors (masked), each element read once and written once",
        "the inputs left unchanged",
        "non-contiguous inputs (a transposed matrix, a strided vector, a slice of a wider "
        "matrix's columns), a contiguous output",
        "one launch per call and no pass over memory outside the kernel (no torch computation, "
        "cast, fill, or copy of a contiguous input), over triton.cdiv(n, BLOCK) programs, BLOCK "
        "fixed",
        "a new output in every call: an earlier call's result stays as it was, and the same "
        "tensors with new values give new results",
    ]


@pytest.mark.parametrize("name", RIGHT_RMS_NORM)
def test_rms_norm_correct_answers_pass(graded, name):
    result = graded[name]
    assert result["status"] == "passed", result
    assert result["passed"] == [
        "x / sqrt(mean(x * x) + eps) per row, for rows of 1, 33, 65, 333, 1000, 1024, 1500 and "
        "an odd number of columns (fresh random inputs), through Triton's interpreter",
        "every load and store inside its tensors (masked), masked lanes not summed, every row "
        "written",
        "eps inside the square root, as given; the input left unchanged",
        "non-contiguous inputs (a slice of a wider matrix, a transposed one)",
        "a float16 x of values in the hundreds (squares summed in float32)",
        "rms_norm(x) without eps: the signature's default, eps = 1e-6",
        "one launch per call and no pass over memory outside the kernel (no torch computation, "
        "cast, fill, or copy of a contiguous input), one program per row",
        "a new output in every call: an earlier call's result stays as it was, and the same "
        "tensors with new values give new results",
    ]


def test_stubs_are_not_attempted_and_a_non_function_is_refused(graded):
    assert graded["stub_relu"] == "not attempted"
    assert graded["stub_rms"] == "not attempted"
    assert graded["not_a_function"] == "pass the function itself: check('07.rms_norm', rms_norm)"
    from d2lgpu.grading import check

    assert check("07.relu_mul", 42, quiet=True).hint == (
        "pass the function itself: check('07.relu_mul', relu_mul)"
    )


def test_a_block_grown_with_n_is_named_in_full(graded):
    # the same number of programs for n and 2 n or more, one block each: a grid-stride loop
    # (a set number of programs, more loads for more elements) is right
    fails(
        graded,
        "relu_mul_block_grows",
        "relu_mul ran n = 1000 and n = 4096 as 4 programs each: a BLOCK that grows with n (a set "
        "number of programs), not a fixed one. Each new BLOCK is another compile of the kernel, "
        "and a large one holds more values than a program's registers: keep BLOCK fixed (say "
        "1024) and let the grid grow, triton.cdiv(n, BLOCK) programs",
    )


def test_a_missing_mask_is_stopped_before_it_touches_memory(graded):
    fails(graded, "relu_mul_no_mask", "for n = 1,", "read", "Mask every load and store")
    fails(graded, "relu_mul_store_unmasked", "wrote", "tl.store(..., mask=mask)")
    fails(graded, "rms_norm_no_mask", "read", "Mask every load and store")


def test_wrong_offsets_and_a_short_grid_are_named(graded):
    fails(graded, "relu_mul_pid_offsets", "more than one program", "pid * BLOCK + tl.arange")
    fails(graded, "relu_mul_floor_grid", "never written", "triton.cdiv(n, BLOCK)")
    fails(graded, "rms_norm_one_row_short", "never written", "one program per row")
    fails(graded, "rms_norm_fixed_block", "only partly written", "next_power_of_2")


def test_an_output_made_with_no_device_is_named(graded):
    fails(graded, "relu_mul_out_on_the_default_device", "with torch.empty (in your function",
          "and no device=", "which Triton refuses", "device=x.device")  # fmt: skip


def test_writing_into_an_input_is_named(graded):
    hint = fails(graded, "relu_mul_into_x", "stored into x, an input")["hint"]
    assert hint.startswith("for n = 1, the tensor relu_mul returned is x itself"), hint
    fails(graded, "rms_norm_into_x", "stored into x, an input")
    fails(graded, "relu_mul_relu_in_place", "relu_mul changed its input x in place")
    fails(
        graded,
        "rms_norm_centers_x_first",
        "for a 1 x 1 matrix, rms_norm changed its input x in place: compute into a new output",
    )


def test_an_output_of_another_shape_and_a_result_made_without_a_kernel_are_named(graded):
    fails(
        graded,
        "rms_norm_flat_output",
        "for a 1 x 1 matrix, rms_norm returned a torch.float32 tensor of shape (1,) on cpu; it "
        "must have x's shape (1, 1)",
    )
    fails(
        graded,
        "relu_mul_flat_output",
        "for a 37 x 129 matrix, relu_mul returned a torch.float32 tensor of shape (4773,) on cpu",
    )
    fails(
        graded,
        "rms_norm_in_torch",
        "rms_norm launched no Triton kernel (for a 1 x 1 matrix): compute the result in your "
        "@triton.jit kernel",
    )


def test_elements_a_value_mask_skips_an_infinite_sum_and_a_missing_eps_are_named(graded):
    # n = 1 with x < 0 stores nothing into the output given; elsewhere the zeros scatter
    hint = fails(graded, "relu_mul_positive_only", "the zeros too")["hint"]
    assert (
        "such as x > 0" in hint
        and "stored none of its elements" in hint
        or ("scattered through the result" in hint)
    ), hint
    fails(graded, "rms_norm_other_inf", "your result is 0 everywhere", "other=0.0")
    fails(graded, "rms_norm_grid_over_columns", "programs for", "rows", "a grid of (x.shape[0],)")
    hint = fails(graded, "rms_norm_no_eps", "eps")["hint"]
    assert "your result has no eps" in hint or "you left eps out" in hint, hint


def test_an_output_kept_between_calls_and_a_block_shorter_than_a_row_are_named(graded):
    result = fails(
        graded,
        "relu_mul_kept_output",
        "relu_mul's second call (n = 1000) overwrote what its first call returned",
        "Make a new output tensor in every call",
    )
    assert len(result["passed"]) == 5  # every other rule holds it right
    result = fails(
        graded,
        "rms_norm_kept_output",
        "rms_norm's second call (a 4 x 1000 matrix) overwrote what its first call returned",
        "Make a new output tensor in every call",
    )
    assert len(result["passed"]) == 7
    # kept by address: the same tensors with new values, or (graded in one process with other
    # answers) a new tensor in a freed one's memory, get a kept result and no launch
    kept = ("though earlier calls did: a result kept between calls", "in every call")
    fails(graded, "relu_mul_kept_by_address", *kept)
    fails(graded, "rms_norm_kept_by_address", *kept)
    fails(
        graded,
        "rms_norm_block_1024",
        "for a 2 x 1500 matrix, row 0 was only partly written (1024 of 1500 columns)",
        "BLOCK = triton.next_power_of_2(n_cols)",
    )


def test_ignored_strides_are_named(graded):
    fails(graded, "relu_mul_ignores_strides", "wrong when x is transposed", ".contiguous()")
    fails(graded, "rms_norm_row_stride_from_shape", "x.stride(0) = 1000", "not 333")


def test_an_output_with_a_transposed_inputs_layout_is_named(graded):
    # torch.empty_like(x) before x = x.contiguous(): the prompt asks for a contiguous output.
    layout = ("x transposed", "not contiguous", "after x = x.contiguous()")
    fails(
        graded,
        "relu_mul_out_like_strided_x",
        *layout,
        "relu_mul returned a tensor that is not contiguous",
        "and your kernel writes element i at out_ptr + i.",
    )
    fails(
        graded,
        "rms_norm_out_like_strided_x",
        *layout,
        "rms_norm returned a tensor that is not contiguous",
        "and your kernel writes a row's elements side by side.",
    )


def test_wrong_reductions_and_operations_are_named(graded):
    fails(graded, "rms_norm_mean_over_block", "block size (1024)", "number of columns (1000)")
    fails(graded, "rms_norm_no_other", "NaN", "tl.load's other=")
    fails(graded, "rms_norm_eps_outside", "eps goes inside the square root")
    fails(graded, "rms_norm_fixed_eps", "use the eps you are given", "1e-05")
    hint = fails(graded, "relu_of_product", "relu(x * y)", "relu applies to x alone")["hint"]
    assert re.match(r"for (n = |an odd n|a 37 x 129)", hint), hint  # the case is named
    fails(graded, "relu_mul_in_torch", "relu_mul launched no Triton kernel (for n = 1)")


def test_an_input_loaded_twice_and_a_cast_of_y_are_named_with_their_case(graded):
    assert fails(graded, "relu_mul_x_loaded_twice")["hint"] == (
        "for n = 1, your kernel loaded 1 element(s) more than once: each tl.load is a read of "
        "memory, and the fused kernel reads x and y once each (3 n floats moved). Load each "
        "input once, x = tl.load(x_ptr + offsets, mask=mask), and compute both the relu and "
        "the product from the value loaded"
    )
    hint = fails(graded, "relu_mul_y_cast_in_torch")["hint"]
    assert hint.startswith(
        "for n = 1000, x in float32 and y in float16, relu_mul ran `to` (in your function "
        "relu_mul_y_cast_in_torch, line "
    ), hint
    assert "which made a copy in another dtype" in hint, hint


def test_a_compiled_kernel_is_refused_with_how_to_switch_the_interpreter_on(graded):
    fails(graded, "relu_mul_compiled", "compiled, not interpreted", "TRITON_INTERPRET")


def test_the_watch_is_removed_after_a_check_and_the_kernels_are_kept(graded):
    assert graded["watch_removed"] is True
    assert graded["kernel_kept"] is True


def test_every_answer_was_graded(graded):
    # A new answer in triton_answers.py must get a test here: none is graded silently.
    named = {n for n in graded if n.startswith(("relu_mul", "relu_of_", "rms_norm"))}
    wrong = re.findall(r'fails\(\s*graded,\s*"(\w+)"', Path(__file__).read_text())
    tested = set(wrong) | set(RIGHT_RELU_MUL) | set(RIGHT_RMS_NORM)
    assert named == tested, named ^ tested


def test_the_checker_imports_no_triton_until_a_check_runs():
    script = textwrap.dedent(
        """
        import sys
        import d2lgpu.checks.ch07_triton, d2lgpu.grading
        print("triton" in sys.modules)
        """
    )
    out = fresh_python(
        "-c",
        script,
        timeout=120,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_the_chapter_says_triton_is_missing_and_skips_cleanly(tmp_path):
    # A machine without triton (macOS, Windows): the chapter runs top to bottom and says why.
    import nbformat

    from tools.kernel_start import NotebookClient  # nbclient's, started again if it died at once

    shim = tmp_path / "shim"
    (shim / "triton").mkdir(parents=True)
    (shim / "triton" / "__init__.py").write_text("raise ImportError('no triton here')\n")
    nb = nbformat.read(ROOT / "notebooks" / "07_triton.ipynb", as_version=4)
    # The shim and the course first; then whatever PYTHONPATH already holds, which may be
    # where Jupyter itself is installed (a kernel that cannot import ipykernel dies at start).
    path = [str(shim), str(ROOT), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    env = dict(os.environ, CUDA_VISIBLE_DEVICES="", PYTHONPATH=os.pathsep.join(path))
    env.pop("TRITON_INTERPRET", None)
    client = NotebookClient(
        nb,
        timeout=120,
        startup_timeout=300,  # a kernel on a busy machine can take over a minute to start
        kernel_name="python3",
        resources={"metadata": {"path": str(tmp_path)}},
    )
    with client.setup_kernel(env=env):
        for index, cell in enumerate(nb.cells):
            if cell.cell_type == "code":
                client.execute_cell(cell, index)  # raises on an error
    texts = [
        "".join(o.get("text", "") for o in c.outputs if o.output_type == "stream")
        for c in nb.cells
        if c.cell_type == "code"
    ]
    assert any("triton is not installed" in t for t in texts), texts
    skipped = [t for t in texts if t.startswith("Skipped: this cell needs triton")]
    assert len(skipped) >= 5, texts


# ---------------------------------------------------------------------------------------------
# Chapter 7's own kernels, read from the notebook


@pytest.fixture(scope="session")
def chapter_kernels(tmp_path_factory):
    """Chapter 7's add, softmax and online_softmax, and slips made in them on purpose, checked
    against PyTorch under the exercise checker's watch on odd sizes, in a process of their own:
    name -> the first failure, "" when none."""

    def make(folder):
        folder.mkdir(parents=True, exist_ok=True)
        env = dict(os.environ, CUDA_VISIBLE_DEVICES="", TRITON_INTERPRET="1", PYTHONPATH=str(ROOT))
        out = fresh_python(
            str(ROOT / "tests" / "triton_answers.py"),
            "--chapter",
            str(folder),
            timeout=240,
            env=env,
        )
        assert out.returncode == 0, out.stderr
        return json.loads(out.stdout.strip().splitlines()[-1])

    return once_per_session(tmp_path_factory, "triton_chapter_kernels", make)[1]


@pytest.mark.parametrize("name", ["add", "softmax", "online_softmax"])
def test_the_chapters_kernels_agree_with_torch_in_bounds_on_odd_sizes(chapter_kernels, name):
    # Rows of 1, 129, 781 and 4097 columns, blocks of 16 to 1024, a slice, a transpose, large
    # values, rows whose max grows in every chunk; every load and store inside its tensors,
    # masked lanes without other= read as NaN.
    assert chapter_kernels[name] == "", chapter_kernels[name]


def test_each_slip_in_the_chapters_kernels_is_caught(chapter_kernels):
    slips = {k: v for k, v in chapter_kernels.items() if ":" in k}
    assert len(slips) == 12, sorted(slips)
    missed = [slip for slip, failure in slips.items() if not failure]
    assert not missed, f"no case catches {missed}"
    for slip in (
        "add: no mask on the load",
        "add: no mask on the store",
        "online: the store unmasked",
    ):
        assert "out of bounds" in slips[slip], (slip, slips[slip])
    assert "not close" in slips["online: no rescale of the running sum"]


@pytest.mark.timeout(300)
def test_the_chapters_kernels_compile_for_a_gpu_without_one(tmp_path):
    # The interpreter runs Python, not Triton's compiler: a loop-carried variable whose type
    # changes, or an operation the compiler lacks, passes there and fails on a GPU. Triton
    # compiles for a named target (an H100, sm_90) with no GPU present, down to the cubin.
    script = textwrap.dedent(
        """
        import json, sys
        import triton
        from triton.backends.compiler import GPUTarget
        from triton.compiler import ASTSource

        cells = {c.get("id"): "".join(c["source"]) for c in json.load(open(sys.argv[1]))["cells"]}
        header = "import torch\\nimport triton\\nimport triton.language as tl\\n\\n"
        with open("chapter_kernels.py", "w") as f:
            f.write(header + "\\n\\n".join(cells[i] for i in sys.argv[2:]) + "\\n")
        import chapter_kernels

        for name in ("add_kernel", "softmax_kernel", "online_softmax_kernel"):
            fn = getattr(chapter_kernels, name)
            signature = {
                a: "*fp32" if a.endswith("_ptr") else "constexpr" if a == "BLOCK" else "i32"
                for a in fn.arg_names
            }
            source = ASTSource(fn, signature, constexprs={"BLOCK": 1024})
            compiled = triton.compile(source, target=GPUTarget("cuda", 90, 32))
            print(name, "cubin" in compiled.asm)
        """
    )
    env = dict(os.environ, CUDA_VISIBLE_DEVICES="", TRITON_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("TRITON_INTERPRET", None)
    env["PYTHONPATH"] = f"{tmp_path}{os.pathsep}{ROOT}"
    cells = ["7c888e6c", "3238e47f", "d5a2e6f7"]  # add, softmax, online_softmax
    out = fresh_python(
        "-c",
        script,
        str(ROOT / "notebooks" / "07_triton.ipynb"),
        *cells,
        timeout=240,
        env=env,
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.split() == [
        "add_kernel",
        "True",
        "softmax_kernel",
        "True",
        "online_softmax_kernel",
        "True",
    ]


@pytest.mark.timeout(300)
def test_the_chapters_gpu_cells_run_on_a_cpu_with_stand_in_timers(tmp_path):
    # No GPU runs these tests, and nbval skips GPU cells here: this runs the chapter on the CPU
    # with its GPU cells too (a stand-in device name, small sizes, one-call timers), so a
    # wrong name, a missing argument or a broken line in a GPU cell fails here. Only their
    # timing claims may fail, as an interpreted kernel is far slower than PyTorch's.
    env = dict(os.environ, CUDA_VISIBLE_DEVICES="", TRITON_INTERPRET="1", PYTHONPATH=str(ROOT))
    out = fresh_python(
        str(ROOT / "tests" / "triton_answers.py"),
        "--gpu-cells",
        timeout=240,
        env=env,
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    results = json.loads(out.stdout.strip().splitlines()[-1])
    assert results.pop("do_bench calls") == ["median"] * 3  # three kernels, each its median
    gpu = [c.id for c in nbformat_cells() if "requires-gpu" in c.metadata.get("tags", [])]
    assert sorted(results) == sorted(gpu) and len(gpu) == 3, (results, gpu)
    for cell_id, error in results.items():
        assert error == "" or error.startswith("AssertionError"), (cell_id, error)


def nbformat_cells():
    import nbformat

    return nbformat.read(ROOT / "notebooks" / "07_triton.ipynb", as_version=4).cells


def test_a_scalar_argument_serves_as_a_loop_bound_in_the_interpreter(tmp_path):
    # Triton 3.6's interpreter made n an int with int(array), which numpy 2.4 refuses for an
    # array of one dimension; scalars_as_indices (in every watched run) squeezes it first.
    kernel = tmp_path / "loop_bound.py"
    kernel.write_text(
        textwrap.dedent(
            """
            import torch
            import triton
            import triton.language as tl

            from d2lgpu.checks._ch07_interpreter import scalars_as_indices


            @triton.jit
            def total(out_ptr, x_ptr, n, BLOCK: tl.constexpr):
                acc = 0.0
                for start in range(0, n, BLOCK):
                    cols = start + tl.arange(0, BLOCK)
                    acc += tl.sum(tl.load(x_ptr + cols, mask=cols < n, other=0.0), axis=0)
                tl.store(out_ptr, acc)


            x, out = torch.arange(10.0), torch.zeros(1)
            with scalars_as_indices():
                total[(1,)](out, x, 10, BLOCK=4)
            print(out.item())
            """
        )
    )
    env = dict(os.environ, CUDA_VISIBLE_DEVICES="", TRITON_INTERPRET="1", PYTHONPATH=str(ROOT))
    out = fresh_python(str(kernel), timeout=120, env=env)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.split() == ["45.0"]  # 0 + 1 + ... + 9, in blocks of 4


# ---------------------------------------------------------------------------------------------
# What both checkers do with an answer (_ch07_answers), on stores recorded by hand


def watched_stores(*written):
    """A Watch that saw each tensor element in ``written`` (pairs of a tensor and the flat
    indices stored to, repeats counted) stored by a kernel."""
    import numpy as np

    from d2lgpu.checks._ch07_interpreter import Watch

    watch = Watch()
    for t, indices in written:
        watch.stores.append(t.data_ptr() + np.asarray(indices, dtype=np.int64) * t.element_size())
    return watch


def test_coverage_hints_name_elements_written_twice_or_never():
    from d2lgpu.checks._ch07_answers import coverage_hint

    out = torch.empty(10)
    where = "n = 10"
    assert coverage_hint(out, watched_stores((out, range(10))), where) is None
    assert coverage_hint(out.view(2, 5).t(), watched_stores(), where) is None  # not contiguous
    assert coverage_hint(torch.empty(0), watched_stores(), where) is None
    twice = ": program pid must handle elements pid * BLOCK to pid * BLOCK + BLOCK - 1 (offsets = pid * BLOCK + tl.arange(0, BLOCK))"
    assert coverage_hint(out, watched_stores((out, [*range(9), 0, 1])), where) == (
        f"for n = 10, 2 element(s) were written by more than one program and 1 by none{twice}"
    )
    assert coverage_hint(out, watched_stores((out, [*range(10), 3])), where) == (
        f"for n = 10, 1 element(s) were written by more than one program{twice}"
    )
    assert coverage_hint(out, watched_stores((out, range(6))), where) == (
        "for n = 10, elements 6 to 9 (the last 4) were never written: the grid is one program "
        "short; launch triton.cdiv(n, BLOCK) programs, not n // BLOCK, so the last, partial "
        "block is covered (and size the grid with the BLOCK the kernel is given, not another)"
    )
    assert coverage_hint(out, watched_stores((out, [0, 2, 4, 6, 8])), where) == (
        "for n = 10, 5 element(s) scattered through the result (the first: index 1) were never "
        "written, so they hold whatever their memory held: a store masked by more than the "
        "bounds (such as x > 0) skips them. Store every element in bounds, mask = offsets < n, "
        "the zeros too"
    )
    assert coverage_hint(out, watched_stores((out, [0, 1, 3, 4, 6, 7, 8, 9])), where) == (
        "for n = 10, 2 element(s) (the first: index 2) were never written: program pid must "
        "handle elements pid * BLOCK to pid * BLOCK + BLOCK - 1 (offsets = pid * BLOCK + "
        "tl.arange(0, BLOCK)), and the grid must cover all n"
    )
    matrix = torch.empty(4, 5)  # 4 rows: only as many elements written as x.shape[0]
    assert coverage_hint(matrix, watched_stores((matrix, range(4))), "a 4 x 5 matrix") == (
        "for a 4 x 5 matrix, only the first 4 elements were written, as many as x has rows "
        "(x.shape[0] = 4), and elements 4 to 19 never: n, the number of elements the kernel "
        "covers, is x.numel() (every element of a tensor of any shape), not x.shape[0] or len(x)"
    )


def test_coverage_hints_by_row_name_rows_partly_or_never_written():
    from d2lgpu.checks._ch07_answers import coverage_hint

    out = torch.empty(4, 5)
    where = "a 4 x 5 matrix"

    def hint(indices):
        return coverage_hint(out, watched_stores((out, indices)), where, unit="row")

    assert hint(range(20)) is None
    assert hint([*range(20), 0]) is None  # rows are not counted twice
    assert hint([*range(10), 10, 11, *range(15, 20)]) == (
        "for a 4 x 5 matrix, row 2 was only partly written (2 of 5 columns): one program "
        "handles a whole row, so BLOCK must be at least n_cols: BLOCK = "
        "triton.next_power_of_2(n_cols)"
    )
    never_tail = (
        " never written: launch one program per row (a grid of n_rows programs), and let "
        "program tl.program_id(0) handle its row"
    )
    assert hint(range(15)) == f"for a 4 x 5 matrix, row 3 was{never_tail}"
    assert hint(range(10)) == f"for a 4 x 5 matrix, rows 2 to 3 were{never_tail}"
    assert hint([*range(5), *range(10, 15)]) == (
        "for a 4 x 5 matrix, 2 row(s) (the first: row 1) were never written: program "
        "tl.program_id(0) must handle exactly that row"
    )


def test_an_answers_output_inputs_shape_and_layout_are_each_named():
    from d2lgpu.checks._ch07_answers import (
        out_layout_hint,
        require_contiguous_output,
        require_inputs_untouched,
        require_kernel_output,
        require_shape,
    )
    from d2lgpu.grading import CheckFailed

    out, x = torch.empty(6), torch.ones(6)
    require_kernel_output(out, watched_stores((out, [0])), "relu_mul", "n = 6")
    require_kernel_output(torch.empty(0), watched_stores(), "relu_mul", "n = 0")
    with pytest.raises(CheckFailed) as failed:
        require_kernel_output(out, watched_stores((x, [0])), "relu_mul", "n = 6")
    assert str(failed.value) == (
        "for n = 6, relu_mul returned a tensor your kernel never wrote: it launched the kernel, "
        "but the result is not the kernel's output (a result computed again with torch "
        "operations, such as torch.relu(x) * y, or a copy). Return the tensor your kernel "
        "stored into, made in x's dtype (torch.empty(x.shape, dtype=x.dtype, device=x.device))"
    )
    with pytest.raises(CheckFailed, match=r"such as x \* torch.rsqrt\(\(x \* x\).mean\(1, "):
        require_kernel_output(out, watched_stores((x, [0])), "rms_norm", "n = 6")  # its own
    given = watched_stores((x, [0]))
    given.launch([x, out])  # the output was the kernel's argument, and none of it stored
    with pytest.raises(CheckFailed) as failed:
        require_kernel_output(out, given, "relu_mul", "n = 6")
    assert str(failed.value) == (
        "for n = 6, your kernel was given the tensor relu_mul returned but stored none of its "
        "elements, so it holds whatever its memory held (torch.empty does not clear it): a "
        "store masked by more than the bounds (such as x > 0) leaves elements unwritten. Store "
        "every element in bounds, mask = offsets < n, the zeros too"
    )
    copies = {"x": x.clone()}
    require_inputs_untouched({"x": x}, copies, watched_stores((out, [0])), "relu_mul", "n = 6")
    with pytest.raises(CheckFailed) as failed:
        require_inputs_untouched({"x": x}, copies, watched_stores((x, [2])), "relu_mul", "n = 6")
    assert str(failed.value) == (
        "for n = 6, your kernel stored into x, an input: store the result through the output's "
        "pointer (out_ptr), and leave the inputs as they were"
    )
    changed = torch.zeros(6)
    with pytest.raises(CheckFailed) as failed:
        require_inputs_untouched({"x": changed}, copies, watched_stores(), "relu_mul", "n = 6")
    assert str(failed.value) == (
        "for n = 6, relu_mul changed its input x in place: compute into a new output tensor "
        "(torch.empty_like) and leave the inputs as they were"
    )
    require_shape(out, x, "relu_mul", "n = 6")
    for wrong in (
        torch.empty(5),
        torch.empty(6, dtype=torch.float64),
        torch.empty(6, device="meta"),
    ):
        with pytest.raises(CheckFailed) as failed:
            require_shape(wrong, x, "relu_mul", "n = 6")
        assert str(failed.value) == (
            f"for n = 6, relu_mul returned a {wrong.dtype} tensor of shape {tuple(wrong.shape)} "
            f"on {wrong.device}; it must have x's shape (6,) and dtype torch.float32, on "
            "x's device (torch.empty(x.shape, dtype=x.dtype, device=x.device))"
        )
    transposed = torch.empty(5, 3).t()
    assert out_layout_hint(out, "relu_mul", "n = 6", "element i at out_ptr + i") is None
    hint = out_layout_hint(transposed, "rms_norm", "x transposed", "a row's elements side by side")
    assert hint == (
        "for x transposed, rms_norm returned a tensor that is not contiguous (strides (1, 3); a "
        "contiguous one of this shape has (5, 1)), and your kernel writes a row's elements side "
        "by side. torch.empty_like(x) copies x's layout: call it after x = x.contiguous(), or "
        "make the output with torch.empty(x.shape, dtype=x.dtype, device=x.device)"
    )
    with pytest.raises(CheckFailed) as failed:
        require_contiguous_output(
            transposed, "rms_norm", "x transposed", "a row's elements side by side"
        )
    assert str(failed.value) == hint
    require_contiguous_output(out, "relu_mul", "n = 6", "element i at out_ptr + i")


def test_an_answer_is_called_with_what_it_read_or_wrote_out_of_bounds_named():
    from d2lgpu.checks._ch07_answers import agrees, call_answer, first_difference, random_input
    from d2lgpu.checks._ch07_interpreter import OutOfBounds
    from d2lgpu.grading import CheckFailed

    out = torch.empty(4)

    def answer(kind=None, returns=out, launches=1):
        def run(x):
            watch.launches += launches
            if kind:
                raise OutOfBounds(kind, 3)
            return returns

        return run

    watch = watched_stores((out, range(4)))
    assert call_answer(answer(), (out,), "relu_mul", watch, "n = 4") is out
    mask = (
        "the last block runs past the end. Mask every load and store (mask = offsets < n, "
        "tl.{kind}(..., mask=mask)) and use each tensor's own strides"
    )
    for kind, verb in (("load", "read"), ("store", "wrote")):
        with pytest.raises(CheckFailed) as failed:
            call_answer(answer(kind), (out,), "relu_mul", watch, "n = 4")
        assert str(failed.value) == (
            f"for n = 4, your kernel {verb} 3 element(s) outside the tensors it was given "
            "(stopped before it did): " + mask.format(kind=kind)
        )
    with pytest.raises(CheckFailed) as failed:
        call_answer(answer("store"), (out,), "rms_norm", watch, "x transposed", "its layout")
    assert str(failed.value) == (
        "for x transposed, your kernel wrote 3 element(s) past the end of the output (stopped "
        "before it did): its layout"
    )
    with pytest.raises(CheckFailed, match=r"^for x, your kernel read 3 .*outside the tensors"):
        call_answer(answer("load"), (out,), "rms_norm", watch, "x", "its layout")
    watch.grids.append((2, 1, 1))  # two programs: more than one row, not more than n's blocks
    with pytest.raises(CheckFailed) as failed:
        call_answer(answer("load"), (out,), "rms_norm", watch, "a 1 x 1 matrix", rows=1)
    assert str(failed.value) == (
        "for a 1 x 1 matrix, your kernel read 3 element(s) outside the tensors it was given "
        "(stopped before it did): the grid launched 2 programs for 1 rows, and the programs past "
        "the last row reach past the end. Launch one program per row, a grid of (x.shape[0],)"
    )
    with pytest.raises(CheckFailed, match="the last block runs past the end"):
        call_answer(answer("load"), (out,), "relu_mul", watch, "n = 4")  # no rows: elementwise
    watch.grids.clear()
    with pytest.raises(CheckFailed, match="^relu_mul launched no Triton kernel for n = 4, though "):
        call_answer(answer(launches=0), (out,), "relu_mul", watch, "n = 4")  # after one that did
    calls, watch.calls = watch.calls, []
    with pytest.raises(CheckFailed) as failed:
        call_answer(answer(launches=0), (out,), "relu_mul", watch, "n = 4")
    watch.calls = calls + watch.calls
    assert str(failed.value) == (
        "relu_mul launched no Triton kernel (for n = 4): compute the result in your @triton.jit "
        "kernel, launched as kernel[grid](...), not with torch operations"
    )
    with pytest.raises(CheckFailed) as failed:
        call_answer(answer(returns=[1.0]), (out,), "relu_mul", watch, "n = 4")
    assert str(failed.value) == (
        "relu_mul returned a list: return the output tensor your kernel wrote (e.g. out = "
        "torch.empty_like(x), filled by the kernel)"
    )
    # a tensor the kernel never wrote is returned here, and named once its values are judged
    stranger = torch.empty(4)
    assert call_answer(answer(returns=stranger), (out,), "relu_mul", watch, "n = 4") is stranger
    assert [c.launches for c in watch.calls] == [1, 0, 0, 1, 1]  # out of bounds: not kept
    # comparing: the first index off by more than rtol 1e-4 and atol 1e-5; -1 when none is
    want = torch.tensor([1.0, 2.0, 3.0, 4.0])
    assert first_difference(want + 5e-6, want) == -1
    assert first_difference(torch.tensor([1.0, 2.0, 3.1, 4.1]), want) == 2
    assert first_difference(torch.tensor([1.0, float("nan"), 3.0, 4.0]), want) == 1
    assert agrees(want * (1 + 5e-5), want) and not agrees(want * (1 + 2e-4), want)
    assert not agrees(want[:3], want) and agrees(want + 0.05, want, rtol=0, atol=0.1)
    gen = torch.Generator().manual_seed(7)
    same = torch.randn(3, 2, generator=torch.Generator().manual_seed(7)) * 2.5
    assert torch.equal(random_input((3, 2), gen, scale=2.5), same)


# ---------------------------------------------------------------------------------------------
# The checkers' cases and diagnoses (ch07_triton), without Triton


def laid_out(t):
    return (tuple(t.shape), t.stride(), t.dtype)


def drawn_twice(cases, seed):
    """The cases drawn twice from generators seeded alike, the global generator moved between:
    equal only if every input comes from the generator given."""
    torch.manual_seed(1)
    first = list(cases(torch.Generator().manual_seed(seed)))
    torch.manual_seed(2)
    second = list(cases(torch.Generator().manual_seed(seed)))
    for a, b in zip(first, second, strict=True):
        assert all(
            torch.equal(u, v) for u, v in zip(a[:2], b[:2], strict=True) if torch.is_tensor(u)
        )
    return first


def test_relu_mul_cases_have_their_sizes_layouts_and_names():
    from d2lgpu.checks._ch07_cases import relu_mul_cases as _relu_mul_cases

    f32, f16 = torch.float32, torch.float16
    odds = set()
    for seed in range(40):
        cases = drawn_twice(_relu_mul_cases, seed)
        (odd,) = cases[3][0].shape
        odds.add(odd)
        assert [(laid_out(x), laid_out(y), where, layout) for x, y, where, layout in cases] == [
            (((1,), (1,), f32), ((1,), (1,), f32), "n = 1", None),
            (((1000,), (1,), f32), ((1000,), (1,), f32), "n = 1000", None),
            (((4096,), (1,), f32), ((4096,), (1,), f32), "n = 4096", None),
            (((odd,), (1,), f32), ((odd,), (1,), f32), "an odd n between 5,000 and 9,100", None),
            (((37, 129), (129, 1), f32), ((37, 129), (129, 1), f32), "a 37 x 129 matrix", None),
            (((1000,), (1,), f16), ((1000,), (1,), f16), "n = 1000 in float16", None),
            (
                ((1000,), (1,), f32),
                ((1000,), (1,), f16),
                "n = 1000, x in float32 and y in float16",
                None,
            ),
            (
                ((1000,), (1,), f16),
                ((1000,), (1,), f32),
                "n = 1000, x in float16 and y in float32",
                None,
            ),
            (
                ((37, 129), (1, 37), f32),
                ((37, 129), (129, 1), f32),
                "x transposed (37 x 129)",
                "x is transposed",
            ),
            (
                ((3001,), (1,), f32),
                ((3001,), (2,), f32),
                "y = every other element of a longer vector (n = 3001)",
                "y is every other element of a longer vector: y.stride(0) == 2",
            ),
            (
                ((37, 129), (200, 1), f32),
                ((37, 129), (129, 1), f32),
                "x = a 37 x 129 slice of a 37 x 200 matrix",
                "x is a slice of a wider matrix's columns: x.stride(1) == 1, but its rows are "
                "x.stride(0) = 200 elements apart, not 129 (x.is_contiguous() is False)",
            ),
        ]
        assert not torch.equal(cases[1][0], cases[1][1])  # x and y: two draws
    assert all(n % 2 == 1 and 5097 <= n <= 9095 for n in odds) and len(odds) > 30


def test_rms_norm_cases_have_their_sizes_layouts_scales_and_names():
    from d2lgpu.checks._ch07_cases import rms_norm_cases as _rms_norm_cases

    odds = set()
    for seed in range(40):
        cases = drawn_twice(_rms_norm_cases, seed)
        odd = cases[3][0].shape[1]
        odds.add(odd)
        assert [(laid_out(x), eps, where, layout) for x, eps, where, layout in cases] == [
            (((1, 1), (1, 1), torch.float32), 1e-6, "a 1 x 1 matrix", None),
            (((4, 1000), (1000, 1), torch.float32), 1e-6, "a 4 x 1000 matrix", None),
            (((3, 1024), (1024, 1), torch.float32), 1e-6, "a 3 x 1024 matrix", None),
            (((6, odd), (odd, 1), torch.float32), 1e-6, "6 rows of an odd length", None),
            (((64, 65), (65, 1), torch.float32), 1e-6, "a 64 x 65 matrix", None),
            (((2, 1500), (1500, 1), torch.float32), 1e-6, "a 2 x 1500 matrix", None),
            (((130, 33), (33, 1), torch.float32), 1e-6, "a 130 x 33 matrix", None),
            (
                ((5, 333), (333, 1), torch.float32),
                1e-5,
                "rows of tiny values (about 1e-4) with eps = 1e-5",
                None,
            ),
            (
                ((5, 333), (1000, 1), torch.float32),
                1e-6,
                "x = a 5 x 333 slice of a 5 x 1000 matrix",
                "rows of x are x.stride(0) = 1000 elements apart, not 333: pass x.stride(0) to "
                "the kernel as the distance from one row's start to the next (or call "
                "x.contiguous() first)",
            ),
            (
                ((7, 200), (1, 7), torch.float32),
                1e-6,
                "x transposed (7 x 200)",
                "x is transposed: x.stride(1) = 7, so a row's elements are not adjacent; call "
                "x.contiguous() first when x.stride(1) != 1",
            ),
            (
                ((4, 300), (300, 1), torch.float16),
                1e-6,
                "a 4 x 300 float16 matrix of values in the hundreds",
                None,
            ),
            (
                ((3, 200), (200, 1), torch.float32),
                None,
                "rms_norm(x) without eps, rows of tiny values (about 1e-4)",
                None,
            ),
            (
                ((5, 301), (602, 2), torch.float32),
                1e-6,
                "x = every other column of a 5 x 602 matrix",
                "x is every other column of a wider matrix: x.stride(1) = 2, so a row's "
                "elements are not adjacent; call x.contiguous() first when x.stride(1) != 1 (or "
                "pass x.stride(1) to the kernel)",
            ),
        ]
        big = cases[10][0].float()
        assert 150 < float(big.std()) < 250 and float(big.abs().max()) > 256  # squares overflow
        assert float(cases[11][0].abs().max()) < 1e-3  # eps 1e-5 and 1e-6 differ
        assert 2.5 < float(cases[4][0].std()) < 3.5  # scale 3 for the plain shapes
        assert 2.5 < float(cases[5][0].std()) < 3.5
        assert float(cases[7][0].abs().max()) < 1e-3  # tiny: mean square below eps
        assert 0.8 < float(cases[8][0].std()) < 1.2
    assert all(n % 2 == 1 and 301 <= n <= 899 for n in odds) and len(odds) > 30


def test_a_wrong_relu_mul_output_is_diagnosed_by_what_it_equals():
    from d2lgpu.checks._ch07_diagnoses import relu_mul_diagnosis as _relu_mul_diagnosis

    x = torch.tensor([-2.0, 3.0, -1.0, 0.5])
    y = torch.tensor([-1.0, 2.0, 4.0, -3.0])
    every = watched_stores  # each element written once

    def hint(out, layout=None):
        return _relu_mul_diagnosis(out, x, y, every((out, range(4))), "n = 4", layout)

    right = torch.relu(x) * y
    assert hint(right.clone(), "x is transposed") == (
        "right on contiguous inputs, wrong when x is transposed: its elements are not at ptr + "
        "i. Call .contiguous() on the inputs in your function before the launch (a no-op when "
        "they already are)"
    )
    short = right.clone()
    assert _relu_mul_diagnosis(short, x, y, every((short, range(2))), "n = 4", None).startswith(
        "for n = 4, elements 2 to 3 (the last 2) were never written"
    )
    for formula, wrong in (
        ("relu(x * y)", torch.relu(x * y)),
        ("x * y", x * y),
        ("x * relu(y)", x * torch.relu(y)),
        ("relu(x) + y", torch.relu(x) + y),
    ):
        assert hint(wrong) == (
            f"for n = 4, you computed {formula}, not relu(x) * y: relu applies to x alone, "
            "tl.maximum(x, 0.0), and the result multiplies y"
        )
    # a wrong formula computed in torch and returned, the kernel writing elsewhere: the
    # formula is named first, not "never wrote"
    elsewhere = torch.empty(4)
    for wrong in (torch.relu(x * y), x * y):
        unstored = _relu_mul_diagnosis(wrong, x, y, every((elsewhere, range(4))), "n = 4", None)
        assert unstored.startswith("for n = 4, you computed "), unstored
    negative = right.clone()
    negative[2] = 7.0  # x < 0 there: relu(x) * y is 0
    assert hint(negative) == (
        "for n = 4, where x < 0 relu(x) * y is 0 (at index 2: x = -1, y = 4, you wrote 7): "
        "apply relu to x alone, tl.maximum(x, 0.0), then multiply by y"
    )
    off = right.clone()
    off[1] = 5.5
    assert hint(off) == ("for n = 4, at index 1: x = 3, y = 2, relu(x) * y = 6, you wrote 5.5")
    zero_where_negative = right.clone()
    zero_where_negative[3] = 1.0  # x > 0 there: not the relu hint
    assert hint(zero_where_negative).startswith("for n = 4, at index 3: x = 0.5, y = -3")


def test_rms_norm_names_columns_normalized_in_full_where_x_has_more_than_one_row():
    from d2lgpu.checks._ch07_diagnoses import rms as _rms
    from d2lgpu.checks._ch07_diagnoses import rms_norm_diagnosis as _rms_norm_diagnosis

    def hint(x, out):
        shape = " x ".join(map(str, x.shape))
        stored = watched_stores((out, range(out.numel())))
        return _rms_norm_diagnosis(out, x, 1e-6, stored, f"a {shape} matrix")

    said = (
        "you normalized each column (the mean of x * x over dim 0, down the rows), not each "
        "row: one program per row, program tl.program_id(0) loads the n_cols elements of its "
        "row (x_ptr + row * x_row_stride + cols) and divides them by their own root mean square"
    )
    two_rows = torch.tensor([[1.0, -2.0, 3.0], [0.5, 0.25, -4.0]])
    assert hint(two_rows, _rms(two_rows.t(), 1e-6).t()) == f"for a 2 x 3 matrix, {said}"
    one_column = torch.tensor([[1.0], [-2.0], [3.0]])  # each row's own rms is its |x|
    assert hint(one_column, _rms(one_column.t(), 1e-6).t()) == f"for a 3 x 1 matrix, {said}"
    one_row = two_rows[:1]  # a column of one value: its normalization is no mistake of axes
    assert said not in hint(one_row, _rms(one_row.t(), 1e-6).t())


def test_a_wrong_rms_norm_output_is_diagnosed_by_what_it_equals():
    from d2lgpu.checks._ch07_diagnoses import rms as _rms
    from d2lgpu.checks._ch07_diagnoses import rms_norm_diagnosis as _rms_norm_diagnosis

    x = torch.tensor([[1.0, -2.0, 3.0], [0.5, 0.25, -4.0]])
    eps = 1e-6
    squares = (x * x).sum(dim=1, keepdim=True)

    def hint(out, e=eps):
        return _rms_norm_diagnosis(out, x, e, watched_stores((out, range(6))), "a 2 x 3 matrix")

    partly = _rms(x, eps)
    assert _rms_norm_diagnosis(
        partly, x, eps, watched_stores((partly, [0, 1, 2, 3])), "a 2 x 3 matrix"
    ).startswith("for a 2 x 3 matrix, row 1 was only partly written (1 of 3 columns)")
    nan = _rms(x, eps)
    nan[1, 0] = float("nan")
    assert hint(nan) == (
        "for a 2 x 3 matrix, your result has NaN: the masked lanes of a load without other= "
        "are undefined on a GPU (NaN here), and the sum of squares adds them in. Give the "
        "masked lanes a value that adds nothing to a sum, with tl.load's other="
    )
    for block in (4, 1024):
        assert hint(x / torch.sqrt(squares / block + eps)) == (
            f"for a 2 x 3 matrix, you divided the sum of squares by the block size ({block}), "
            "not by the number of columns (3): the masked lanes are not part of the row"
        )
    wide = torch.randn(2, 1000, generator=torch.Generator().manual_seed(0)) * 1e-3
    out = wide / torch.sqrt((wide * wide).sum(dim=1, keepdim=True) / 1024 + 1e-8)
    assert "by the block size (1024)" in _rms_norm_diagnosis(
        out, wide, 1e-8, watched_stores((out, range(2000))), "w"
    )
    tiny = x * 1e-3
    outside = tiny / (torch.sqrt((tiny * tiny).mean(dim=1, keepdim=True)) + 1e-2)
    assert (
        _rms_norm_diagnosis(
            outside, tiny, 1e-2, watched_stores((outside, range(6))), "a 2 x 3 matrix"
        )
        == "for a 2 x 3 matrix, eps goes inside the square root: x / sqrt(mean(x * x) + eps)"
    )
    small = x * 1e-3  # eps matters at this scale
    for other in (0.0, 1e-5, 1e-8):
        got = _rms(small, other)
        assert _rms_norm_diagnosis(
            got, small, 1e-6, watched_stores((got, range(6))), "a 2 x 3 matrix"
        ) == (
            "for a 2 x 3 matrix, your result has no eps: x / sqrt(mean(x * x) + eps), with the "
            "eps you are given (here 1e-06)"
            if other == 0.0
            else "for a 2 x 3 matrix, use the eps you are given (here 1e-06), not another one"
        )
    # no eps where eps outside the root agrees too (a row's values well above eps, yet small
    # enough that eps inside the root tells: the checker fails the answer): both named
    big = x * 0.02
    assert not torch.allclose(_rms(big, 0.0), _rms(big, 1e-6), rtol=1e-4, atol=1e-5)
    got = _rms(big, 0.0)
    assert _rms_norm_diagnosis(
        got, big, 1e-6, watched_stores((got, range(6))), "a 2 x 3 matrix"
    ) == (
        "for a 2 x 3 matrix, you left eps out, or added it outside the root (here the two "
        "agree): eps goes inside the square root: x / sqrt(mean(x * x) + eps)"
    )
    zeros = torch.zeros_like(x)  # an infinite sum of squares: other=-inf's masked lanes
    assert "your result is 0 everywhere" in _rms_norm_diagnosis(
        zeros, x, 1e-6, watched_stores((zeros, range(6))), "a 2 x 3 matrix"
    )
    assert hint(x * torch.sqrt(squares / 3 + eps)) == (
        "for a 2 x 3 matrix, divide by the root mean square: x / sqrt(mean(x * x) + eps)"
    )
    off = _rms(x, eps)
    off[1, 2] += 1.0
    assert hint(off) == (
        f"for a 2 x 3 matrix, row 1 differs from x / sqrt(mean(x * x) + eps): expected "
        f"{_rms(x, eps)[1, :3].tolist()}..., you wrote {off[1, :3].tolist()}..."
    )


# ---------------------------------------------------------------------------------------------
# The watched interpreter's records (_ch07_interpreter), fed by hand


def test_a_tensors_extent_runs_from_its_first_to_its_last_element():
    from d2lgpu.checks._ch07_interpreter import _extent

    x = torch.empty(3, 4)
    ptr = x.data_ptr()
    assert _extent(x) == (ptr, ptr + 48) and _extent(x.t()) == (ptr, ptr + 48)
    assert _extent(x[:, 1:3]) == (ptr + 4, ptr + 4 + (2 * 4 + 1 + 1) * 4)
    assert _extent(x[1]) == (ptr + 16, ptr + 32)
    one = torch.ones(1, dtype=torch.float64)
    assert _extent(one.expand(5)) == (one.data_ptr(), one.data_ptr() + 8)  # stride 0
    assert _extent(torch.empty(0)) is None


def test_the_watch_counts_launches_and_judges_each_access_by_the_launchs_tensors():
    import numpy as np

    from d2lgpu.checks._ch07_interpreter import OutOfBounds, Watch, _tensors

    watch = Watch()
    assert (watch.launches, watch.extents, watch.stores) == (0, [], [])
    x, out = torch.empty(4), torch.empty(4)
    args = [x, 2.0, [out, (torch.empty(0),)]]  # nested, a scalar, an empty tensor
    assert [t.shape for t in _tensors(args)] == [(4,), (4,), (0,)]
    watch.launch(_tensors(args))
    assert watch.launches == 1 and watch.extents == [
        (x.data_ptr(), x.data_ptr() + 16),
        (out.data_ptr(), out.data_ptr() + 16),
    ]
    ptrs = out.data_ptr() + 4 * np.arange(6)  # two lanes past the end
    watch.access(x.data_ptr() + 4 * np.arange(4), None, 4, "load")
    watch.access(ptrs, np.arange(6) < 4, 4, "store")  # masked: only the four inside
    assert watch.stores[0].tolist() == ptrs[:4].tolist()
    with pytest.raises(OutOfBounds) as raised:
        watch.access(ptrs, None, 4, "store")
    assert (raised.value.kind, raised.value.count, str(raised.value)) == (
        "store",
        2,
        "2 store(s) out of bounds",
    )
    with pytest.raises(OutOfBounds) as raised:  # the last element's bytes run past the end
        watch.access(np.array([out.data_ptr() + 13]), None, 4, "load")
    assert raised.value.count == 1 and len(watch.stores) == 1  # a failed store is not kept
    with pytest.raises(OutOfBounds):  # before the first tensor's start
        watch.access(np.array([x.data_ptr() - 4]), np.array([True]), 4, "load")
    watch.launch([out])
    assert watch.launches == 2 and watch.extents == [(out.data_ptr(), out.data_ptr() + 16)]


def test_the_watch_tells_output_rows_placed_at_an_inputs_stride_from_other_stores():
    import numpy as np

    from d2lgpu.checks._ch07_interpreter import Watch

    # out (2 x 3, contiguous) right before a 2 x 10 matrix whose first 3 columns are x: the
    # output's second row, written at x's row stride (10), lands in x's memory
    memory = torch.empty(6 + 20)
    out, x = memory[:6].view(2, 3), memory[6:].view(2, 10)[:, :3]
    watch = Watch()
    at_x_stride = out.data_ptr() + 4 * np.array([0, 1, 2, 10, 11, 12])
    watch.stores = [at_x_stride]
    assert watch.stored_into(x) and watch.rows_placed_at(x, out)
    watch.stores = [x.data_ptr() + 4 * np.array([0, 1, 2])]  # x's own first row: no such rows
    assert watch.stored_into(x) and not watch.rows_placed_at(x, out)
    watch.stores = [out.data_ptr() + 4 * np.arange(6)]  # out's own rows only: x untouched
    assert not watch.rows_placed_at(x, out)
    same = memory[:6].view(2, 3)
    assert not watch.rows_placed_at(same, out)  # one row stride: nothing to tell


def test_the_watch_says_what_each_tensor_had_stored_into_it():
    import numpy as np

    from d2lgpu.checks._ch07_interpreter import Watch

    out, other = torch.empty(4), torch.empty(4)
    watch = Watch()
    watch.stores = [out.data_ptr() + 4 * np.array([0, 1, 1, 3]), np.array([out.data_ptr() + 16])]
    counts = watch.written(out)
    assert counts.dtype == np.int64 and counts.tolist() == [1, 2, 0, 1]  # one past: not out's
    assert watch.stored_into(out) and not watch.stored_into(other)
    assert not watch.stored_into(torch.empty(0))
    watch.stores = [np.array([out.data_ptr() + 16])]  # just past out's last byte
    assert not watch.stored_into(out) and watch.written(out).tolist() == [0, 0, 0, 0]


def compiled_helper(x):
    return compiled_kernel_user(x)


def compiled_kernel_user(x):
    return x


def test_compiled_kernels_are_found_in_the_answer_and_the_learners_functions_it_calls():
    from triton.runtime.jit import JITFunction

    from d2lgpu.checks import _ch07_interpreter
    from d2lgpu.checks._ch07_interpreter import _code_names, _compiled_kernels

    def outer():
        def inner():
            return nested_name  # noqa: F821 (a name only, never looked up)

        return inner

    assert {"nested_name"} <= _code_names(outer.__code__)
    kernel = JITFunction(compiled_kernel_user)
    globals()["a_compiled_kernel"] = kernel
    try:

        def answer(x):
            return compiled_helper(a_compiled_kernel)  # noqa: F821

        assert _compiled_kernels(answer) == ["a_compiled_kernel"]
        globals()["compiled_kernel_user"], saved = kernel, compiled_kernel_user
        try:  # found through the learner's own helper too, once each
            assert _compiled_kernels(compiled_helper) == ["compiled_kernel_user"]
        finally:
            globals()["compiled_kernel_user"] = saved
        assert _compiled_kernels(len) == [] and _compiled_kernels(lambda: None) == []
        assert _compiled_kernels(_ch07_interpreter.import_triton) == []  # the course's: not read
    finally:
        del globals()["a_compiled_kernel"]


def test_a_missing_triton_is_said_as_such(monkeypatch):
    import sys

    from d2lgpu.checks._ch07_interpreter import NO_TRITON, import_triton
    from d2lgpu.grading import CheckFailed

    monkeypatch.setitem(sys.modules, "triton", None)  # import triton raises ImportError
    with pytest.raises(CheckFailed) as failed:
        import_triton()
    assert str(failed.value) == NO_TRITON
    assert NO_TRITON.startswith("this exercise needs the triton package, which is not installed")


def test_an_output_written_twice_and_read_back_is_named(graded):
    assert fails(graded, "relu_mul_through_out")["hint"] == (
        "for n = 1, your kernel stored 1 element(s) of the output more than once and loaded 1 "
        "back from it: each tl.store is a write of memory, and the fused kernel writes each "
        "element of the result once (relu(x) stored, read back, then multiplied: up to 2 n "
        "more floats moved than the fused kernel's 3 n). Keep the intermediate in registers: "
        "load x and y once, and store relu(x) * y once"
    )


def test_a_reduction_of_x_in_torch_is_named_as_a_pass_over_it(graded):
    hint = fails(graded, "rms_norm_norms_in_torch", "ran `linalg_vector_norm`")["hint"]
    assert "(a reduction such as a norm, a max or a check reads all of x too)" in hint, hint
