"""The course's device and precision choices on the GPUs learners have, checked with fakes.

Colab's T4 (compute capability 7.5, 15 GiB, bf16 only emulated, no TF32), Kaggle's two T4s
(no peer access) and the H100 the course ran on, faked on a CPU by the ``gpus`` fixture
(``d2lgpu.checks.ch01_devices.fake_gpus`` with a ``GpuProfile``). Where a chapter makes
its choice in a cell, the test runs that cell's own code under the fake. None of this runs
a GPU kernel: docs/hardware.md says what ran on real GPUs and what only here.
"""

import ast
import contextlib
import io
from pathlib import Path

import nbformat
import pytest
import torch

import d2lgpu
from d2lgpu import bench, collectives, distributed, hardware, models
from d2lgpu.checks.ch01_devices import H100, T4, GiB, GpuProfile

ROOT = Path(__file__).resolve().parents[1]
CUDA = torch.device("cuda")

# (case, number of GPUs, profile)
LEARNER_GPUS = [("colab-t4", 1, T4), ("kaggle-2xt4", 2, T4), ("h100", 1, H100)]
CASES = pytest.mark.parametrize(
    ("n", "profile"), [case[1:] for case in LEARNER_GPUS], ids=[c[0] for c in LEARNER_GPUS]
)


def cell(notebook: str, cell_id: str) -> str:
    nb = nbformat.read(ROOT / "notebooks" / notebook, as_version=4)
    return next(c.source for c in nb.cells if c.get("id") == cell_id)


def run_code(source: str, namespace: dict) -> str:
    """Run notebook code (no magics) in ``namespace``; return what it printed."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(source, "<cell>", "exec"), namespace)
    return out.getvalue()


# --- the fake itself --------------------------------------------------------------------


@CASES
def test_the_fake_describes_the_profile(gpus, n, profile):
    gpus(n, profile)
    assert torch.cuda.is_available() and torch.cuda.device_count() == n
    assert d2lgpu.num_gpus() == n and d2lgpu.try_all_gpus()[-1] == torch.device("cuda", n - 1)
    props = torch.cuda.get_device_properties(torch.device("cuda", n - 1))
    assert (props.name, props.total_memory) == (profile.name, profile.total_memory)
    assert (props.major, props.minor) == profile.capability == torch.cuda.get_device_capability()
    assert props.multi_processor_count == profile.multi_processor_count
    assert torch.cuda.get_device_name(0) == profile.name
    assert torch.cuda.is_bf16_supported() is True  # with emulation, a T4 says True too
    assert torch.cuda.is_bf16_supported(including_emulation=False) is (profile is H100)
    with pytest.raises(AssertionError, match=f"Invalid device id {n}"):
        torch.cuda.get_device_properties(n)


def test_the_profiles_are_the_learners_gpus():
    assert T4.capability == (7, 5) and T4.total_memory == 15 * GiB
    assert T4.multi_processor_count == 40 and not T4.peer_access and not T4.bf16_native
    assert H100.capability == (9, 0) and H100.total_memory == 80 * GiB
    assert H100.multi_processor_count == 132 and H100.bf16_native


def test_kaggle_t4s_cannot_reach_each_other(gpus):
    gpus(2, T4)
    assert torch.cuda.can_device_access_peer(0, 1) is False
    assert torch.cuda.can_device_access_peer(1, 0) is False


def test_the_fake_is_undone_after_the_block():
    real = torch.cuda.get_device_capability, torch.cuda.is_bf16_supported
    with d2lgpu.checks.ch01_devices.fake_gpus(2, T4):
        assert torch.cuda.get_device_capability is not real[0]
    assert (torch.cuda.get_device_capability, torch.cuda.is_bf16_supported) == real


def test_a_profile_needs_a_gpu():
    with pytest.raises(ValueError, match="n must be at least 1 with a profile, got 0"):
        with d2lgpu.checks.ch01_devices.fake_gpus(0, T4):
            pass


# --- chapter 4: the precision, TF32, the size -------------------------------------------


@CASES
def test_chapter4_plan(gpus, n, profile):
    gpus(n, profile)
    plan = hardware.amp_plan(CUDA)
    if profile is T4:  # bf16 only emulated: fp16, which needs a GradScaler for its range
        assert (plan.dtype, plan.grad_scaler, plan.tf32) == (torch.float16, True, False)
        assert "is_bf16_supported(including_emulation=False) is False" in plan.reason
        assert "Tesla T4 (compute capability 7.5)" in plan.reason and "GradScaler" in plan.reason
    else:
        assert (plan.dtype, plan.grad_scaler, plan.tf32) == (torch.bfloat16, False, True)
        assert "is_bf16_supported(including_emulation=False) is True" in plan.reason
    assert hardware.fast_matmul_dtype(CUDA) == plan.dtype


def test_chapter4_plan_on_the_cpu():
    plan = hardware.amp_plan("cpu")
    assert (plan.dtype, plan.grad_scaler, plan.tf32) == (torch.bfloat16, False, False)
    assert hardware.fast_matmul_dtype("cpu") == torch.float32


@CASES
def test_chapter4_cell_says_why(gpus, n, profile):
    # Section 4.6's cell, as the notebook has it, under the fake.
    gpus(n, profile)
    namespace = {"torch": torch, "d2lgpu": d2lgpu, "device": d2lgpu.try_gpu()}
    printed = run_code(cell("04_amp.ipynb", "8b39b868b279"), namespace)
    major, minor = profile.capability
    assert f"compute capability ({major}, {minor})" in printed
    native = profile is H100
    assert f"is_bf16_supported(including_emulation=False): {native}" in printed
    if native:
        assert "trains in torch.bfloat16, GradScaler False, TF32 True" in printed
    else:
        assert "trains in torch.float16, GradScaler True, TF32 False" in printed
    assert "why: " + namespace["plan"].reason in printed


def _step_variants(plan, device) -> dict:
    """The variants section 4.10's cell times: its statements before the timing loop."""
    source = cell("04_amp.ipynb", "f1d6e899c7c4")
    tree = ast.parse(source)
    head = []
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and "results" in ast.unparse(stmt.targets[0]):
            break
        head.append(stmt)
    namespace = {
        "plan": plan,
        "device": device,
        "torch": torch,
        "VARIANTS": {"fp32": None, "bf16": torch.bfloat16, "fp16": torch.float16},
    }
    exec(compile(ast.Module(head, type_ignores=[]), "<cell>", "exec"), namespace)
    return namespace["step_variants"]


@CASES
def test_chapter4_times_tf32_only_where_there_is_tf32(gpus, n, profile):
    gpus(n, profile)
    variants = _step_variants(hardware.amp_plan(CUDA), CUDA)
    assert ("tf32" in variants) is (profile is H100)
    assert {"fp32", "bf16", "fp16"} <= variants.keys()


@CASES
def test_chapter4_sizes_fit_the_gpu(gpus, n, profile):
    gpus(n, profile)
    width, batch, lr = models.amp_sizes(CUDA)
    # An H100 keeps the size its references were recorded at; a T4 fits it too.
    assert (width, batch, lr) == (2048, 16384, 5e-4)
    fp32 = hardware.peak_flops(profile.name, "fp32")
    assert fp32 is not None  # the size is chosen from the datasheet table
    assert models.linear_stack_cost(width, batch)["flops"] / fp32 <= models.AMP_STEP_SECONDS
    assert models._amp_step_bytes(width, batch) <= models.AMP_MEMORY_SHARE * profile.total_memory


def test_chapter4_sizes_shrink_on_a_small_or_slow_gpu(gpus):
    small = GpuProfile("Tesla T4", (7, 5), 2 * GiB, 40, peer_access=False)
    gpus(1, small)
    width, batch, _ = models.amp_sizes(CUDA)
    assert models.AMP_MIN_BATCH <= batch < 16384
    assert models._amp_step_bytes(width, batch) <= models.AMP_MEMORY_SHARE * small.total_memory
    assert models._amp_step_bytes(width, 2 * batch) > models.AMP_MEMORY_SHARE * small.total_memory
    # A GPU of a tenth of a T4's fp32 rate: the fp32 products bound the batch.
    slow = models.amp_gpu_batch(80 * GiB, 0.81e12)
    assert slow < 16384
    assert models.linear_stack_cost(2048, slow)["flops"] / 0.81e12 <= models.AMP_STEP_SECONDS
    # No datasheet entry: memory alone decides.
    assert models.amp_gpu_batch(80 * GiB, None) == 16384
    assert models.amp_gpu_batch(1, None) == models.AMP_MIN_BATCH


def test_chapter4_sizes_without_a_gpu_are_the_recorded_ones(gpus):
    gpus(0)  # "cuda" named on a machine without one: the sizes the references were made at
    assert models.amp_sizes("cuda") == (2048, 16384, 5e-4)
    assert models.amp_sizes("cpu") == (128, 64, 1e-3)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"total_memory": 0, "fp32_flops": None}, "total_memory"),
        ({"total_memory": GiB, "fp32_flops": 0.0}, "fp32_flops must be a positive"),
        ({"total_memory": GiB, "fp32_flops": -1e12}, "fp32_flops must be a positive"),
    ],
)
def test_chapter4_size_rejects_bad_input(kwargs, message):
    with pytest.raises((ValueError, TypeError), match=message):
        models.amp_gpu_batch(**kwargs)


# --- the bench and chapter 6: the datasheet table ---------------------------------------


@pytest.mark.parametrize(
    ("torch_name", "bf16", "tf32"),
    [
        ("Tesla T4", None, None),  # Turing: no bf16 and no TF32 in hardware
        ("NVIDIA L4", 121.0, 60.0),
        ("NVIDIA A10G", None, None),  # NVIDIA publishes no rates for it: none listed
        ("NVIDIA A100-SXM4-40GB", 312.0, 156.0),  # Colab's A100
        ("NVIDIA A100-SXM4-80GB", 312.0, 156.0),
        ("NVIDIA A100-PCIE-40GB", 312.0, 156.0),
    ],
)
def test_the_table_knows_the_cloud_gpus_with_sources(torch_name, bf16, tf32):
    entry = hardware.datasheet(torch_name)
    assert entry is not None and entry.url.startswith("https://") and entry.source
    for dtype, tflops in (("bf16", bf16), ("tf32", tf32)):
        assert hardware.peak_flops(torch_name, dtype) == (None if tflops is None else tflops * 1e12)
    assert (hardware.peak_flops(torch_name, torch.float16) is None) is (not entry.tflops)
    table = hardware.format_datasheet_table()
    assert torch_name in table and entry.url in table
    # What the bench stores beside its results: the entry, its source and link.
    stored = bench._datasheet(torch_name)
    assert stored["url"] == entry.url and ("bf16" in stored["tflops"]) is (bf16 is not None)


def test_the_t4_row_shows_what_it_cannot_do():
    row = next(line for line in hardware.format_datasheet_table().splitlines() if "T4" in line)
    # bf16 and tf32 columns are "-": absent, never a neighbour's number.
    assert row.split()[-8:-3] == ["-", "65", "-", "8.1", "-"]  # bf16 fp16 tf32 fp32 fp64


@CASES
def test_chapter6_measures_the_dtype_the_gpu_has_a_datasheet_peak_for(gpus, n, profile):
    # Chapter 6's sizes cell and its datasheet lookup, under the fake.
    gpus(n, profile)
    namespace = {"torch": torch, "d2lgpu": d2lgpu, "hardware": hardware}
    printed = run_code(cell("06_performance.ipynb", "4c16b155229c"), namespace)
    assert f"device: cuda:0 ({profile.name})" in printed
    assert namespace["mm_dtype"] == (torch.float16 if profile is T4 else torch.bfloat16)
    printed = run_code(cell("06_performance.ipynb", "682594bf2318"), namespace)
    assert namespace["datasheet_flops"] == hardware.peak_flops(profile.name, namespace["mm_dtype"])
    assert namespace["datasheet_flops"] is not None and "no datasheet entry" not in printed


@CASES
def test_the_bench_sizes_its_model_for_the_gpu(gpus, n, profile):
    gpus(n, profile)
    assert models.amp_sizes(CUDA)[:2] == (2048, 16384)
    assert hardware.datasheet(profile.name) is not None


# --- the 2-GPU cells: nccl, and no peer access assumed ----------------------------------


def _two_gpu_cells():
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        for c in nb.cells:
            if "requires-2-gpus" in c.metadata.get("tags", []):
                yield path.name, c


def test_there_are_two_gpu_cells_in_chapters_2_5_9_and_10():
    chapters = {name[:2] for name, _ in _two_gpu_cells()}
    assert chapters == {"02", "05", "09", "10"}


@pytest.mark.parametrize(("n", "profile"), [(2, T4), (2, H100)], ids=["kaggle-2xt4", "2xh100"])
def test_two_gpus_get_nccl_one_gpu_per_rank(gpus, n, profile):
    gpus(n, profile)
    assert distributed.choose_backend(2) == "nccl"
    assert [distributed.rank_device("nccl", r) for r in range(2)] == [
        torch.device("cuda", 0),
        torch.device("cuda", 1),
    ]
    assert distributed.choose_backend(3) == "gloo"  # more ranks than GPUs


def test_two_gpu_cells_assume_no_peer_access_and_name_nccl():
    for name, c in _two_gpu_cells():
        source = c.source
        assert "gloo" not in source, (name, c.id)
        for peer in ("can_device_access_peer", "enable_peer_access", "cudaDeviceEnablePeer"):
            assert peer not in source, (name, c.id, peer)
        assert not any("nvlink" in line.lower() for line in source.splitlines() if "assert" in line)
        if "init_process_group" in source:
            assert 'init_process_group("nccl")' in source, (name, c.id)


KAGGLE_TOPOLOGY = """\
\tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity
GPU0\t X \tPHB\t0-3\t0
GPU1\tPHB\t X \t0-3\t0
"""


def test_chapter10_reads_kaggles_link_as_pcie_with_no_peak(monkeypatch):
    class Done:
        stdout = KAGGLE_TOPOLOGY

    monkeypatch.setattr(collectives.shutil, "which", lambda name: "/usr/bin/nvidia-smi")
    monkeypatch.setattr(collectives.subprocess, "run", lambda *a, **k: Done())
    assert collectives.gpu_link() == "pcie"
    # Chapter 10 measures against the T4's PCIe peak; a T4 has no NVLink to assume.
    assert collectives.link_peak("Tesla T4", "pcie") > 0
    assert collectives.link_peak("Tesla T4", "nvlink") is None
