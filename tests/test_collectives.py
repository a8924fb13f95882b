"""d2lgpu.collectives: bandwidth arithmetic, the link table, topology parsing, overlap from
trace events; and the argument handling of scripts/inside_ddp.py (chapter 10 runs it)."""

import importlib.util
import json
import os
import subprocess
from pathlib import Path

import pytest

from d2lgpu import collectives
from d2lgpu.collectives import (
    all_reduce_bandwidth,
    format_link_table,
    gpu_link,
    link_peak,
    overlap_summary,
    parse_topology,
)

ROOT = Path(__file__).resolve().parent.parent

TOPO_NVLINK = """\
\tGPU0\tGPU1\tNIC0\tCPU Affinity\tNUMA Affinity
GPU0\t X \tNV18\tPXB\t0-51\t0
GPU1\tNV18\t X \tPXB\t0-51\t0
"""
TOPO_PCIE = """\
        GPU0    GPU1    CPU Affinity    NUMA Affinity
GPU0     X      PHB     0-15            0
GPU1    PHB      X      0-15            0
"""


def test_all_reduce_bandwidth_is_nccl_tests_definition():
    alg, bus = all_reduce_bandwidth(16 * 2**20, 0.01, 2)
    assert alg == pytest.approx(16 * 2**20 / 0.01)
    assert bus == pytest.approx(alg)  # 2 (n - 1) / n = 1 for two ranks
    alg, bus = all_reduce_bandwidth(1000, 1e-6, 8)
    assert bus == pytest.approx(alg * 14 / 8)
    assert all_reduce_bandwidth(1000, 1.0, 1)[1] == 0.0


@pytest.mark.parametrize(
    "args, name",
    [((0, 1.0, 2), "nbytes"), ((10, 0.0, 2), "seconds"), ((10, 1.0, 0), "world_size"),
     ((10.5, 1.0, 2), "nbytes"), ((10, float("nan"), 2), "seconds")],
)  # fmt: skip
def test_all_reduce_bandwidth_rejects_bad_input(args, name):
    with pytest.raises(ValueError, match=name):
        all_reduce_bandwidth(*args)


def test_link_peak_is_one_direction_of_the_datasheet_figure():
    assert link_peak("NVIDIA H100 80GB HBM3", "nvlink") == 450e9
    assert link_peak("nvidia  h100 80gb hbm3", "pcie") == 64e9
    assert link_peak("NVIDIA L4", "nvlink") is None  # no NVLink on that part
    assert link_peak("NVIDIA H100 NVL", "nvlink") is None  # unlisted: no neighbour's numbers
    with pytest.raises(ValueError, match="link must be one of"):
        link_peak("NVIDIA L4", "infiniband")
    with pytest.raises(TypeError, match="device_name"):
        link_peak(0, "pcie")
    table = format_link_table()
    assert all(e.part in table and e.source in table for e in collectives.LINKS)


def test_parse_topology_and_gpu_link(monkeypatch):
    assert parse_topology(TOPO_NVLINK) == "NV18"
    assert parse_topology(TOPO_PCIE, 1, 0) == "PHB"
    assert parse_topology(TOPO_PCIE, 0, 5) is None
    assert parse_topology("No devices were found") is None
    with pytest.raises(ValueError, match="b must be"):
        parse_topology(TOPO_PCIE, 0, -1)

    monkeypatch.setattr(collectives.shutil, "which", lambda name: None)
    assert gpu_link() is None
    monkeypatch.setattr(collectives.shutil, "which", lambda name: "/usr/bin/nvidia-smi")
    for text, kind in ((TOPO_NVLINK, "nvlink"), (TOPO_PCIE, "pcie"), ("", None)):
        done = subprocess.CompletedProcess([], 0, stdout=text)
        monkeypatch.setattr(collectives.subprocess, "run", lambda *a, done=done, **k: done)
        assert gpu_link() == kind


def ev(name, start, end):
    return {"name": name, "start_us": start, "end_us": end}


B = "autograd::engine::evaluate_function: "


def test_overlap_summary_measures_communication_during_backward():
    events = [
        ev(B + "AddmmBackward0", 0, 10),
        ev(B + "torch::autograd::AccumulateGrad", 10, 12),
        ev("gloo:all_reduce", 11, 15),
        ev(B + "AddmmBackward0", 12, 20),
        ev("gloo:all_reduce", 14, 25),  # overlaps the first: counted once
        ev("c10d::allreduce_", 11, 11.5),
    ]
    s = overlap_summary(events, "gloo:all_reduce", B, skip=("AccumulateGrad",))
    assert s["backward_us"] == (0, 20)
    assert s["first_comm_start_us"] == 11
    assert s["overlap_us"] == pytest.approx(9)  # 11..20
    assert s["comm_total_us"] == pytest.approx(14)  # 11..25
    assert len(s["comm_us"]) == 2 and len(s["backward_ops_us"]) == 2
    after = overlap_summary([events[0], ev("gloo:all_reduce", 30, 40)], "gloo:all_reduce", B)
    assert after["overlap_us"] == 0 and after["first_comm_start_us"] >= after["backward_us"][1]


def test_overlap_summary_rejects_missing_events():
    with pytest.raises(ValueError, match="no backward op"):
        overlap_summary([ev("gloo:all_reduce", 0, 1)], "gloo:all_reduce", B)
    with pytest.raises(ValueError, match="no communication event"):
        overlap_summary([ev(B + "X", 0, 1)], "nccl:all_reduce", B)
    with pytest.raises(ValueError, match="skip must be a sequence"):
        overlap_summary([ev(B + "X", 0, 1)], "x", B, skip="AccumulateGrad")


def kernel(name, start, end, launched):
    return {"name": name, "start_us": start, "end_us": end, "launched_us": launched}


NCCL = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"


def test_kernel_overlap_summary_reads_what_the_gpu_ran_not_when_it_was_queued():
    events = [
        ev(B + "AddmmBackward0", 0, 10),
        ev(B + "torch::autograd::AccumulateGrad", 10, 12),  # DDP's hook: a bucket's copy
        ev(B + "AddmmBackward0", 12, 20),
        ev(B + "ReluBackward0", 20, 30),
        ev("nccl:all_reduce", 11, 11.5),
    ]
    kernels = [
        kernel("ampere_sgemm_64x64_nn", -4, -2, -5),  # the forward's, before backward
        kernel("ampere_sgemm_64x64_tn", 5, 9, 1),
        kernel("elementwise_kernel (the bucket's copy)", 13, 14, 11),  # from AccumulateGrad
        kernel(NCCL, 15, 40, 14),  # NCCL's, whichever op launched it
        kernel("ampere_sgemm_64x64_tn", 16, 22, 13),
        kernel("threshold_backward", 30, 33, 21),
        kernel("memcpy with no launching op", 35, 36, None),
    ]
    s = collectives.kernel_overlap_summary(kernels, events, B, skip=("AccumulateGrad",))
    assert s["backward_ops_us"] == [(5, 9), (16, 22), (30, 33)]
    assert s["backward_us"] == (5, 33) and s["comm_us"] == [(15, 40)]
    assert s["first_comm_start_us"] == 15
    assert s["overlap_us"] == pytest.approx(18)  # 15..33, the window
    assert s["concurrent_us"] == pytest.approx(9)  # 16..22 and 30..33: both running
    assert s["comm_total_us"] == pytest.approx(25)
    assert collectives.is_nccl_kernel("ncclKernel_AllReduce_RING_LL_Sum_float")
    assert not collectives.is_nccl_kernel("void at::native::vectorized_elementwise_kernel")


def test_kernel_overlap_summary_rejects_kernels_without_backward_or_nccl():
    events = [ev(B + "AddmmBackward0", 0, 10)]
    with pytest.raises(ValueError, match="none was launched by a backward op"):
        collectives.kernel_overlap_summary([kernel(NCCL, 0, 1, 5)], events, B)
    with pytest.raises(ValueError, match="no NCCL kernel"):
        collectives.kernel_overlap_summary([kernel("sgemm", 0, 1, 5)], events, B)
    with pytest.raises(ValueError, match="skip must be a sequence"):
        collectives.kernel_overlap_summary([], events, B, skip="AccumulateGrad")


@pytest.fixture(scope="module")
def script():
    spec = importlib.util.spec_from_file_location("inside_ddp", ROOT / "scripts" / "inside_ddp.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_inside_ddp_arguments(script, tmp_path, capsys):
    args = script.parse_args(["--out", str(tmp_path), "--parts", "bandwidth", "--sizes", "8,64"])
    assert args.parts == ["bandwidth"] and args.sizes == [8, 64] and args.caps == [0.5, 100.0]
    for bad, says in (
        (["--parts", "buckets,magic"], "unknown ['magic']"),
        (["--sizes", "6"], "multiple of 4"),
    ):
        with pytest.raises(SystemExit):
            script.parse_args(["--out", str(tmp_path), *bad])
        assert says in capsys.readouterr().err
    assert script.parse_buckets("15 14, 13 12,11") == [[15, 14], [13, 12], [11]]
    assert script.parse_args(["--out", str(tmp_path)]).iters == 5
    with pytest.raises(SystemExit):
        script.parse_args(["--out", str(tmp_path), "--iters", "0"])
    assert "--iters: at least 1, got 0" in capsys.readouterr().err


def profiler_event(name, start, end, device="cpu", id=0, linked=0, stream=0, annotation=False):
    """What the script reads of a torch.autograd.profiler_util.FunctionEvent."""
    from types import SimpleNamespace

    from torch.autograd import DeviceType

    return SimpleNamespace(
        name=name, time_range=SimpleNamespace(start=start, end=end),
        device_type=DeviceType.CPU if device == "cpu" else DeviceType.CUDA,
        id=id, linked_correlation_id=linked, device_resource_id=stream,
        is_user_annotation=annotation,
    )  # fmt: skip


def test_the_script_keeps_the_cpus_events_by_device_and_pairs_kernels_with_their_launch(script):
    events = [
        profiler_event(B + "AddmmBackward0", 0, 10, id=1),
        profiler_event("aten::mm", 2, 4, id=2),
        # the runtime's call: its id is CUPTI's, a counter of its own, here equal to the op's
        profiler_event("cudaLaunchKernel", 3, 3.5, id=2, linked=2),
        profiler_event("sgemm", 6, 9, device="cuda", id=4, linked=2, stream=7),
        profiler_event("nccl:all_reduce", 11, 12, id=5, annotation=True),
        profiler_event("nccl:all_reduce", 15, 30, device="cuda", id=6, linked=5, stream=20,
                       annotation=True),  # the same name, on the GPU: not a second all-reduce
        profiler_event(NCCL, 15, 30, device="cuda", id=7, linked=5, stream=20),
        profiler_event("c10d::allreduce_", 11, 11.5, id=8),
    ]  # fmt: skip
    cpu, kernels = script.profiled_events(events, "nccl")
    assert [e["name"] for e in cpu] == [B + "AddmmBackward0", "nccl:all_reduce", "c10d::allreduce_"]
    assert kernels == [
        {"name": "sgemm", "start_us": 6, "end_us": 9, "stream": 7, "launched_us": 2},
        {"name": NCCL, "start_us": 15, "end_us": 30, "stream": 20, "launched_us": 11},
    ]
    s = collectives.kernel_overlap_summary(kernels, cpu, B)
    assert s["backward_ops_us"] == [(6, 9)] and s["comm_us"] == [(15, 30)]


def test_the_script_pairs_a_kernel_with_the_earliest_cpu_event_of_its_ops_id(script):
    events = [
        profiler_event("aten::mm", 2, 4, id=2),
        profiler_event("Activity Buffer Request", 2.5, 2.6, id=2),  # the profiler's, inside
        profiler_event("sgemm", 6, 9, device="cuda", id=4, linked=2, stream=7),
    ]
    _, kernels = script.profiled_events(events, "nccl")
    assert [k["launched_us"] for k in kernels] == [2]


def test_the_script_pairs_kernels_by_the_raw_events_where_events_lack_the_links(script):
    # torch 2.11's FunctionEvent has no linked_correlation_id, and its prof.events() leaves
    # out some nested ops that kernels link to: the profiler's raw events give both
    events = [
        profiler_event("aten::sum", 2, 4, id=3),  # the inner aten::sum, id 4, is not listed
        profiler_event("cudaLaunchKernel", 3, 3.5, id=31),
        profiler_event("reduce_kernel", 6, 9, device="cuda", id=31, stream=7),
    ]
    for e in events:
        del e.linked_correlation_id
    cpu, cuda = events[0].device_type, events[2].device_type
    links = {(cpu, 3, "aten::sum"): 0, (cpu, 31, "cudaLaunchKernel"): 4,
             (cuda, 31, "reduce_kernel"): 4}  # fmt: skip
    _, kernels = script.profiled_events(events, "nccl", (links, {3: 2.0, 4: 2.2}))
    assert kernels == [
        {"name": "reduce_kernel", "start_us": 6, "end_us": 9, "stream": 7, "launched_us": 2.2}
    ]
    import torch
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CPU]) as prof:
        torch.randn(4, 4).sum()
    recorded = prof.events()
    links, starts = script.raw_links(prof)  # a CPU op is linked to nothing (0); its start
    assert recorded and all(links[(e.device_type, e.id, e.name)] == 0 for e in recorded)
    for e in recorded:
        assert starts[e.id] == pytest.approx(e.time_range.start, abs=1e-3)


def test_time_all_reduce_gives_the_time_of_one_call_of_those_back_to_back(script, monkeypatch):
    from types import SimpleNamespace

    import torch

    clock, calls = [0.0], []

    def all_reduce(t, op=None):
        calls.append(("all_reduce", t.numel(), op))
        if op is None:
            clock[0] += 0.5  # each timed all-reduce takes half a second

    fake = SimpleNamespace(
        all_reduce=all_reduce,
        barrier=lambda: calls.append(("barrier",)),
        ReduceOp=SimpleNamespace(MAX="max"),
    )
    monkeypatch.setattr(script, "dist", fake)
    monkeypatch.setattr(script.time, "perf_counter", lambda: clock[0])
    args = script.parse_args(["--out", "unused", "--repeats", "3", "--iters", "4", "--warmup", "2"])
    median, best = script.time_all_reduce(64, args, torch.device("cpu"))
    assert (median, best) == (0.5, 0.5)  # per call, not per repeat of 4
    repeat = [("barrier",), *[("all_reduce", 16, None)] * 4, ("all_reduce", 1, "max")]
    assert calls == [("all_reduce", 16, None)] * 2 + repeat * 3  # warm-up, then the repeats


# Where torch sees a GPU, chapter 10's gloo ranks still run on the CPU (one GPU cannot hold
# two ranks' nccl). An H200 showed fully_shard building its default mesh on CUDA there, and
# rank 1 asking for a second GPU. These ranks see one GPU that cannot be used.
SEES_ONE_GPU = """\
import torch

def refuse(*args, **kwargs):
    raise RuntimeError("this rank asked CUDA for a device (simulated: it sees one GPU)")

torch.cuda.is_available = lambda: True
torch.cuda.device_count = lambda: 1
torch.cuda.set_device = refuse
torch._C._get_accelerator = lambda: torch.device("cuda")  # what a CUDA build answers
"""


@pytest.mark.slow
def test_inside_ddps_gloo_ranks_stay_on_the_cpu_where_torch_sees_a_gpu(tmp_path):
    from d2lgpu.launcher import launch

    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(SEES_ONE_GPU)
    path = os.pathsep.join([str(site), str(ROOT), os.environ.get("PYTHONPATH", "")])
    out = tmp_path / "out"
    args = ["--out", out, "--backend", "gloo", "--parts", "shard", "--width", "16", "--depth", "2",
            "--batch", "8", "--steps", "2"]  # fmt: skip
    launch(ROOT / "scripts" / "inside_ddp.py", nproc=2, args=args, timeout_s=120,
           env={"PYTHONPATH": path, "KINETO_LOG_LEVEL": "6"}, echo=False)  # fmt: skip
    results = json.loads((out / "results.json").read_text())
    assert results["device"] == "cpu" and results["world_size"] == 2
    shard = results["shard"]
    assert shard["max_param_diff"] < 1e-5, shard
    assert sum(shard["bytes_per_rank"]) == shard["full_bytes"], shard
