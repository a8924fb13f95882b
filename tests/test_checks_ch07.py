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


RIGHT_RELU_MUL = ["relu_mul", "relu_mul_small_blocks", "relu_mul_partial"]
RIGHT_RMS_NORM = ["rms_norm", "rms_norm_contiguous", "rms_norm_callable"]


@pytest.mark.parametrize("name", RIGHT_RELU_MUL)
def test_relu_mul_correct_answers_pass(graded, name):
    result = graded[name]
    assert result["status"] == "passed", result
    assert len(result["passed"]) == 4
    assert any(
        "non-contiguous" in line and "contiguous output" in line for line in result["passed"]
    )


@pytest.mark.parametrize("name", RIGHT_RMS_NORM)
def test_rms_norm_correct_answers_pass(graded, name):
    result = graded[name]
    assert result["status"] == "passed", result
    assert len(result["passed"]) == 4
    assert any("eps inside the square root" in line for line in result["passed"])


def test_stubs_are_not_attempted_and_a_non_function_is_refused(graded):
    assert graded["stub_relu"] == "not attempted"
    assert graded["stub_rms"] == "not attempted"
    assert "pass the function itself" in graded["not_a_function"]


def test_a_missing_mask_is_stopped_before_it_touches_memory(graded):
    fails(graded, "relu_mul_no_mask", "for n = 1,", "read", "Mask every load and store")
    fails(graded, "relu_mul_store_unmasked", "wrote", "tl.store(..., mask=mask)")
    fails(graded, "rms_norm_no_mask", "read", "Mask every load and store")


def test_wrong_offsets_and_a_short_grid_are_named(graded):
    fails(graded, "relu_mul_pid_offsets", "more than one program", "pid * BLOCK + tl.arange")
    fails(graded, "relu_mul_floor_grid", "never written", "triton.cdiv(n, BLOCK)")
    fails(graded, "rms_norm_one_row_short", "never written", "one program per row")
    fails(graded, "rms_norm_fixed_block", "only partly written", "next_power_of_2")


def test_writing_into_an_input_is_named(graded):
    fails(graded, "relu_mul_into_x", "stored into x, an input")
    fails(graded, "rms_norm_into_x", "stored into x, an input")
    fails(graded, "relu_mul_relu_in_place", "changed its input x in place")


def test_ignored_strides_are_named(graded):
    fails(graded, "relu_mul_ignores_strides", "wrong when x is transposed", ".contiguous()")
    fails(graded, "rms_norm_row_stride_from_shape", "x.stride(0) = 1000", "not 333")


def test_an_output_with_a_transposed_inputs_layout_is_named(graded):
    # torch.empty_like(x) before x = x.contiguous(): the prompt asks for a contiguous output.
    layout = ("x transposed", "not contiguous", "after x = x.contiguous()")
    fails(graded, "relu_mul_out_like_strided_x", *layout, "element i at out_ptr + i")
    fails(graded, "rms_norm_out_like_strided_x", *layout, "a row's elements side by side")


def test_wrong_reductions_and_operations_are_named(graded):
    fails(graded, "rms_norm_mean_over_block", "block size (1024)", "number of columns (1000)")
    fails(graded, "rms_norm_no_other", "NaN", "tl.load's other=")
    fails(graded, "rms_norm_eps_outside", "eps goes inside the square root")
    fails(graded, "rms_norm_fixed_eps", "use the eps you are given", "1e-05")
    fails(graded, "relu_of_product", "relu(x * y)", "relu applies to x alone")
    fails(graded, "relu_mul_in_torch", "launched no Triton kernel")


def test_a_compiled_kernel_is_refused_with_how_to_switch_the_interpreter_on(graded):
    fails(graded, "relu_mul_compiled", "compiled, not interpreted", "TRITON_INTERPRET")


def test_the_watch_is_removed_after_a_check_and_the_kernels_are_kept(graded):
    assert graded["watch_removed"] is True
    assert graded["kernel_kept"] is True


def test_every_answer_was_graded(graded):
    # A new answer in triton_answers.py must get a test here: none is graded silently.
    named = {n for n in graded if n.startswith(("relu_mul", "relu_of_", "rms_norm"))}
    wrong = re.findall(r'fails\(graded, "(\w+)"', Path(__file__).read_text())
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
