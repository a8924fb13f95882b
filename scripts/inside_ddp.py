"""Look inside DistributedDataParallel: buckets, overlap, all-reduce bandwidth, sharding.

The script chapter 10 launches with torchrun. Every rank runs the same three experiments
and rank 0 writes what they measured to ``OUT/results.json`` (and a profiler trace per
bucket size, ``OUT/trace_cap*.json``, to open in https://ui.perfetto.dev):

buckets    one training step of DDP, profiled, for each ``--caps`` bucket size (MiB): which
           parameters DDP put in which bucket, and when each bucket's all-reduce ran
           compared with the backward pass (on GPUs, also the kernels the GPU ran);
bandwidth  ``dist.all_reduce`` timed for each of ``--sizes`` (bytes): warmed up, each repeat
           started together (a barrier), ``--iters`` all-reduces back to back per repeat
           (as nccl-tests times them), and counted as long as its slowest rank took;
           rank 0 also measures a memory copy, the yardstick for gloo on one machine;
shard      the same small model trained with DDP and with FSDP2's ``fully_shard``: the bytes
           of parameters each rank holds, the losses, and the collectives FSDP2 runs.

    torchrun --standalone --nproc-per-node=2 scripts/inside_ddp.py --out /tmp/inside

With a GPU for every process it uses nccl, otherwise gloo on the CPU (d2lgpu.distributed).
"""

import argparse
import copy
import json
import os
import statistics
import time
from datetime import timedelta
from pathlib import Path

import torch
import torch.distributed as dist
from torch import nn
from torch.autograd import DeviceType
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.profiler import ProfilerActivity, profile

from d2lgpu.distributed import choose_backend, rank_device

PARTS = ("buckets", "bandwidth", "shard")
# The profiler events kept: backward ops, and each bucket's all-reduce (c10d's call, and the
# backend's own event, e.g. "gloo:all_reduce", which spans the transfer itself under gloo).
BACKWARD_PREFIX = "autograd::engine::evaluate_function: "


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add = p.add_argument
    add("--out", type=Path, required=True, help="folder for results.json and the traces")
    add("--parts", default=",".join(PARTS), help=f"comma-separated, from {PARTS}")
    add("--backend", default="auto", choices=("auto", "nccl", "gloo"))
    add("--width", type=int, default=256, help="features of each Linear layer")
    add("--depth", type=int, default=8, help="Linear layers in the model")
    add("--batch", type=int, default=256, help="samples per rank")
    add("--caps", default="0.5,100", help="bucket_cap_mb values to compare, MiB")
    add("--sizes", default="4096,65536,1048576,16777216", help="all-reduce sizes, bytes")
    add("--repeats", type=int, default=11, help="timed repeats per size")
    add("--iters", type=int, default=5, help="all-reduces back to back in each timed repeat")
    add("--warmup", type=int, default=5, help="untimed all-reduces per size")
    add("--steps", type=int, default=3, help="training steps compared, DDP vs FSDP2")
    args = p.parse_args(argv)
    args.parts = [s for s in args.parts.split(",") if s]
    if unknown := set(args.parts) - set(PARTS):
        p.error(f"--parts: unknown {sorted(unknown)}; allowed: {PARTS}")
    args.caps = [float(c) for c in args.caps.split(",")]
    args.sizes = [int(s) for s in args.sizes.split(",")]
    if any(s < 4 or s % 4 for s in args.sizes):
        p.error("--sizes: each a positive multiple of 4 bytes (float32 elements)")
    for name in ("repeats", "iters"):
        if getattr(args, name) < 1:
            p.error(f"--{name}: at least 1, got {getattr(args, name)}")
    return args


def make_model(width, depth, seed=0):
    torch.manual_seed(seed)  # the same initial parameters on every rank
    return nn.Sequential(*[nn.Sequential(nn.Linear(width, width), nn.ReLU()) for _ in range(depth)])


def sync(device):
    if device.type == "cuda":
        torch.cuda.synchronize(device)  # sync point: wait for the GPU before reading a clock


def parse_buckets(text):
    """'15 14, 13 12' (DDP's logging data) -> [[15, 14], [13, 12]]."""
    return [[int(i) for i in b.split()] for b in text.split(",") if b.strip()]


def raw_links(prof):
    """What torch 2.11's events lack, from the profiler's raw (kineto) events, from which
    ``prof.events()`` is built: (device type, id, name) -> linked correlation id of each event
    (for a kernel, the id of the CPU op that launched it; 0 for a CPU op), and the start of
    each CPU op by id, in the microseconds ``prof.events()`` counts. Recent PyTorch gives the
    first as ``FunctionEvent.linked_correlation_id``; torch 2.11's ``prof.events()`` has no
    such attribute, and leaves out some nested ops (an inner ``aten::sum``) that kernels link to.
    """
    from torch.autograd.profiler_util import _rewrite_name  # the name prof.events() shows

    raw = prof.profiler.kineto_results
    links, starts = {}, {}
    for k in raw.events():
        key = (k.device_type(), k.correlation_id(), _rewrite_name(k.name(), with_wildcard=True))
        links[key] = k.linked_correlation_id()
        if k.device_type() == DeviceType.CPU and k.linked_correlation_id() == 0:
            start = (k.start_ns() - raw.trace_start_ns()) / 1e3
            starts[k.correlation_id()] = min(start, starts.get(k.correlation_id(), start))
    return links, starts


def profiled_events(events, backend, raw=None):
    """The CPU's backward ops and all-reduces, and the GPU's kernels, from ``prof.events()``.

    The list holds the GPU's events too (kernels, and a GPU-side copy of a user annotation
    such as ``nccl:all_reduce``), so the CPU's are picked by device as well as by name.
    Each kernel is paired with the start of the CPU op that launched it (the op whose id
    is the kernel's ``linked_correlation_id``), which tells a backward kernel from others.
    Other CPU events can share an op's id (the profiler's own "Activity Buffer Request",
    inside the op): the earliest is the op. ``raw`` (from :func:`raw_links`) gives the
    links and the ops' starts where the events do not.
    """

    def linked(e):
        return e.linked_correlation_id if raw is None else raw[0].get((e.device_type, e.id, e.name))

    comm = (f"{backend}:all_reduce", "c10d::allreduce_")
    on_cpu = [e for e in events if e.device_type == DeviceType.CPU]
    cpu = [
        {"name": e.name, "start_us": e.time_range.start, "end_us": e.time_range.end}
        for e in on_cpu
        if e.name.startswith(BACKWARD_PREFIX) or e.name in comm
    ]
    if raw is None:
        launched = {}
        for e in on_cpu:
            if e.linked_correlation_id == 0:
                launched[e.id] = min(e.time_range.start, launched.get(e.id, e.time_range.start))
    else:
        launched = raw[1]
    kernels = [
        {"name": e.name, "start_us": e.time_range.start, "end_us": e.time_range.end,
         "stream": e.device_resource_id, "launched_us": launched.get(linked(e))}
        for e in events
        if e.device_type == DeviceType.CUDA and not e.is_user_annotation
    ]  # fmt: skip
    return cpu, kernels


def trace_buckets(cap_mb, args, backend, device, rank):
    model = make_model(args.width, args.depth).to(device)
    ddp = DDP(model, device_ids=[device.index] if device.type == "cuda" else None,
              bucket_cap_mb=cap_mb)  # fmt: skip
    x = torch.randn(args.batch, args.width, device=device)
    for _ in range(2):  # the first step rebuilds the buckets in the order gradients arrive
        ddp(x).square().mean().backward()
    sync(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if device.type == "cuda" else [])
    # Under torch 2.11, on 2 loaded CPU cores, a rank lost an all-reduce in up to 4 tries in a
    # row (make test-floor); a try is one small step, so try many times.
    for _ in range(30):
        with profile(activities=activities) as prof:
            ddp(x).square().mean().backward()
            sync(device)
        recorded = prof.events()
        has_links = all(hasattr(e, "linked_correlation_id") for e in recorded)  # not torch 2.11's
        events, kernels = profiled_events(recorded, backend, None if has_links else raw_links(prof))
        # The backend's thread can close an all-reduce's event just after backward returned
        # and the profiler stopped, which then drops it (seen with torch 2.11 under gloo):
        # profile another step until every rank holds one for each c10d::allreduce_ it ran.
        names_seen = [e["name"] for e in events]
        whole = names_seen.count(f"{backend}:all_reduce") >= names_seen.count("c10d::allreduce_")
        agreed = torch.tensor([float(whole)], device=device)
        dist.all_reduce(agreed, op=dist.ReduceOp.MIN)  # outside the profile: every rank agrees
        if agreed.item():  # sync point: the ranks' answer
            break
    logged = ddp._get_ddp_logging_data()  # private: DDP's own record of its buckets
    names = [n for n, _ in model.named_parameters()]
    buckets = parse_buckets(logged["rebuilt_per_bucket_param_indices"])
    if rank == 0:
        prof.export_chrome_trace(str(args.out / f"trace_cap{cap_mb:g}.json"))
    return {
        "cap_mb": cap_mb,
        "bucket_bytes": [int(s) for s in logged["rebuilt_bucket_sizes"].split(",")],
        "bucket_params": [[names[i] for i in b] for b in buckets],
        "param_names": names,
        "param_bytes": [p.numel() * p.element_size() for p in model.parameters()],
        "events": events,
        **({"kernels": kernels} if device.type == "cuda" else {}),
    }


def time_all_reduce(nbytes, args, device):
    """(median, best) over repeats of the slowest rank's time per all-reduce of nbytes.

    Each repeat times ``args.iters`` all-reduces back to back, as nccl-tests does (20 by
    default), so the host's clock reads and syncs are paid once per repeat, not per call.
    Unlike nccl-tests, each repeat starts after a barrier, counts the slowest rank (it
    averages over ranks) and the repeats give a median and a best (it gives one mean).
    """
    t = torch.zeros(nbytes // 4, device=device)  # zeros: the sum stays finite
    for _ in range(args.warmup):
        dist.all_reduce(t)
    times = []
    for _ in range(args.repeats):
        dist.barrier()  # start together, or a late rank's wait counts as transfer time
        sync(device)
        start = time.perf_counter()
        for _ in range(args.iters):
            dist.all_reduce(t)
        sync(device)
        elapsed = torch.tensor([(time.perf_counter() - start) / args.iters], device=device)
        dist.all_reduce(elapsed, op=dist.ReduceOp.MAX)  # done when the slowest rank is
        times.append(elapsed.item())  # .item(): a sync point, outside the timed region
    return statistics.median(times), min(times)


def copy_bandwidth(nbytes=64 * 2**20, repeats=5):
    """bytes/s of a memory copy on the CPU (read + write), best of repeats."""
    src, dst = torch.ones(nbytes // 4), torch.empty(nbytes // 4)
    best = float("inf")
    for _ in range(repeats + 1):
        start = time.perf_counter()
        dst.copy_(src)
        best = min(best, time.perf_counter() - start)
    return 2 * nbytes / best


def bandwidth(args, device):
    rows = []
    for n in args.sizes:
        median, best = time_all_reduce(n, args, device)
        rows.append({"bytes": n, "seconds": median, "best_seconds": best})
    return {"rows": rows, "iters": args.iters, "repeats": args.repeats,
            "cpu_copy_bytes_per_s": copy_bandwidth()}  # fmt: skip


def local_param_bytes(model):
    """Bytes of parameters this rank holds: a DTensor's local shard, or the whole tensor."""
    total = 0
    for p in model.parameters():
        local = p.to_local() if hasattr(p, "to_local") else p
        total += local.numel() * local.element_size()
    return total


def shard(args, device, rank):
    full = make_model(args.width, args.depth).to(device)
    full_bytes = local_param_bytes(full)
    ddp = DDP(copy.deepcopy(full), device_ids=[device.index] if device.type == "cuda" else None)
    sharded = copy.deepcopy(full)
    # The mesh names the ranks' device: left out, fully_shard builds one on CUDA wherever torch
    # sees a GPU, also for gloo ranks on the CPU (and then rank 1 asks for a second GPU).
    mesh = init_device_mesh(device.type, (dist.get_world_size(),))
    for block in sharded:  # each block's parameters: one flat group, all-gathered together
        fully_shard(block, mesh=mesh)
    fully_shard(sharded, mesh=mesh)
    opts = [torch.optim.SGD(m.parameters(), lr=0.1) for m in (ddp, sharded)]
    gen = torch.Generator(device=device).manual_seed(100 + rank)  # each rank its own data
    losses = {"ddp": [], "fsdp": []}
    for step in range(args.steps):
        x = torch.randn(args.batch, args.width, device=device, generator=gen)
        for name, model, opt in zip(("ddp", "fsdp"), (ddp, sharded), opts, strict=True):
            loss = model(x).square().mean()
            opt.zero_grad()
            if name == "fsdp" and step == args.steps - 1:
                with profile(activities=[ProfilerActivity.CPU]) as prof:
                    loss.backward()
                    model(x)  # the next forward: all-gathers again
            else:
                loss.backward()
            opt.step()
            losses[name].append(loss.item())
    gathered = [p.full_tensor() for p in sharded.parameters()]  # all-gathers every shard
    pairs = zip(gathered, ddp.module.parameters(), strict=True)
    diff = max((a - b).abs().max().item() for a, b in pairs)
    held = [None] * dist.get_world_size()
    dist.all_gather_object(held, local_param_bytes(sharded))
    counts = {}
    for e in prof.events():
        if e.name.startswith("c10d::"):
            counts[e.name] = counts.get(e.name, 0) + 1
    return {"full_bytes": full_bytes, "bytes_per_rank": held, "losses": losses,
            "max_param_diff": diff, "collectives": counts}  # fmt: skip


def main(argv=None):
    args = parse_args(argv)
    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    backend = choose_backend(requested=args.backend)
    device = rank_device(backend, local_rank)
    if device.type == "cuda":
        torch.cuda.set_device(device)
    # device_id: nccl binds this rank to its GPU at once (barrier and all_gather_object
    # need to know it); gloo takes none.
    dist.init_process_group(
        backend, timeout=timedelta(seconds=120), device_id=device if device.type == "cuda" else None
    )
    rank, world = dist.get_rank(), dist.get_world_size()
    args.out.mkdir(parents=True, exist_ok=True)
    results = {"backend": backend, "world_size": world, "device": str(device),
               "torch": torch.__version__, "width": args.width, "depth": args.depth}  # fmt: skip
    if device.type == "cuda":
        results["device_name"] = torch.cuda.get_device_name(device)
    if "buckets" in args.parts:
        results["buckets"] = [trace_buckets(c, args, backend, device, rank) for c in args.caps]
    if "bandwidth" in args.parts:
        results["bandwidth"] = bandwidth(args, device)
    if "shard" in args.parts:
        results["shard"] = shard(args, device, rank)
    if rank == 0:
        (args.out / "results.json").write_text(json.dumps(results, indent=1))
        print(f"{backend}, {world} ranks on {device.type}: results in {args.out / 'results.json'}")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
