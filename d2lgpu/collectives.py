"""Reading what a collective measured: bandwidths, the link's peak, DDP's overlap in a trace.

What it is for (chapter 10):

* :func:`all_reduce_bandwidth`: an all-reduce of ``nbytes`` that took ``seconds`` on
  ``world_size`` ranks, as nccl-tests reports it: *algorithm bandwidth* ``nbytes / seconds``
  and *bus bandwidth* ``algbw * 2 (n - 1) / n``, the rate each rank's link carried, which
  is what compares with the link's peak;
* :data:`LINKS` and :func:`link_peak`: the GPU-to-GPU links of a few GPUs (NVLink, PCIe),
  in a labelled table keyed by the name torch reports, with :func:`format_link_table`;
  :func:`gpu_link` reads ``nvidia-smi topo -m`` to say which link joins GPUs 0 and 1;
* :func:`overlap_summary`: from the profiler events of one DDP step, when backward ran and
  when each bucket's all-reduce ran, and how much of the communication overlapped it;
  :func:`kernel_overlap_summary` does the same from the GPU's kernels (under nccl the CPU's
  events say when work was *queued*, not when it ran).

What it is not: the benchmark itself (``scripts/inside_ddp.py`` runs under torchrun) nor a
hardware database: an unlisted GPU gets ``None``, never a neighbour's numbers.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass

from ._validate import check_int, check_positive

__all__ = [
    "LINKS",
    "LinkEntry",
    "all_reduce_bandwidth",
    "format_link_table",
    "gpu_link",
    "is_nccl_kernel",
    "kernel_overlap_summary",
    "link_peak",
    "overlap_summary",
    "parse_topology",
]

GB = 1e9  # bandwidths are in GB/s, 10**9 bytes per second, as datasheets and nccl-tests use


def all_reduce_bandwidth(nbytes, seconds, world_size) -> tuple[float, float]:
    """``(algbw, busbw)`` in bytes/s of an all-reduce of ``nbytes`` that took ``seconds``.

    In a ring all-reduce every rank sends and receives ``2 (n - 1) / n`` times the buffer
    (a reduce-scatter, then an all-gather), so ``busbw = algbw * 2 (n - 1) / n``: the
    number that does not depend on ``n`` and compares with one link's bandwidth, as long as
    the ranks reduce by point-to-point transfers (nccl-tests' ``doc/PERFORMANCE.md``). With
    the reduction done in an NVSwitch (NCCL's NVLS) each rank sends and receives the buffer
    about once, and busbw can exceed one direction of the link for more than 2 ranks.
    """
    check_int("nbytes", nbytes, minimum=1)
    check_positive("seconds", seconds)
    check_int("world_size", world_size, minimum=1)
    algbw = nbytes / seconds
    return algbw, algbw * 2 * (world_size - 1) / world_size


@dataclass(frozen=True)
class LinkEntry:
    """A GPU's links to another GPU, as the datasheet quotes them: GB/s, both directions."""

    part: str
    nvlink_gbs: float | None  # NVLink, all links of one GPU, both directions; None: none
    pcie: str  # PCIe generation and lanes
    pcie_gbs: float  # PCIe, both directions
    source: str
    torch_names: tuple[str, ...]


LINKS: tuple[LinkEntry, ...] = (
    LinkEntry("NVIDIA H100 SXM5 80GB", 900, "Gen5 x16", 128,
              "NVIDIA H100 Tensor Core GPU datasheet (SXM)", ("NVIDIA H100 80GB HBM3",)),
    LinkEntry("NVIDIA H100 PCIe 80GB", 600, "Gen5 x16", 128,
              "NVIDIA H100 Tensor Core GPU datasheet (PCIe; NVLink: 2-GPU bridge)",
              ("NVIDIA H100 PCIe",)),
    LinkEntry("NVIDIA H200 SXM 141GB", 900, "Gen5 x16", 128,
              "NVIDIA H200 Tensor Core GPU datasheet (H200 SXM)", ("NVIDIA H200",)),
    LinkEntry("NVIDIA A100 SXM4 80GB", 600, "Gen4 x16", 64,
              "NVIDIA A100 Tensor Core GPU datasheet (A100 80GB SXM)", ("NVIDIA A100-SXM4-80GB",)),
    LinkEntry("NVIDIA A100 PCIe 40GB", 600, "Gen4 x16", 64,
              "NVIDIA A100 Tensor Core GPU datasheet (PCIe; NVLink: 2-GPU bridge)",
              ("NVIDIA A100-PCIE-40GB",)),
    LinkEntry("NVIDIA L4", None, "Gen4 x16", 64, "NVIDIA L4 Tensor Core GPU datasheet",
              ("NVIDIA L4",)),
    LinkEntry("NVIDIA T4", None, "Gen3 x16", 32, "NVIDIA T4 Tensor Core GPU datasheet",
              ("Tesla T4",)),
)  # fmt: skip
LINK_KINDS = ("nvlink", "pcie")
_BY_NAME = {" ".join(n.split()).casefold(): e for e in LINKS for n in (e.part, *e.torch_names)}


def link_peak(device_name: str, link: str) -> float | None:
    """Peak of ``link`` ("nvlink" or "pcie") of ``device_name``, bytes/s in ONE direction.

    Datasheets quote both directions together; a collective's bus bandwidth is what one
    direction carried (without in-switch reduction, see :func:`all_reduce_bandwidth`), so
    the table's number is halved. ``None`` for an unlisted GPU or one
    without that link.
    """
    if not isinstance(device_name, str):
        raise TypeError(f"device_name must be a str, got {type(device_name).__name__}")
    if link not in LINK_KINDS:
        raise ValueError(f"link must be one of {LINK_KINDS}, got {link!r}")
    entry = _BY_NAME.get(" ".join(device_name.split()).casefold())
    if entry is None:
        return None
    both = entry.nvlink_gbs if link == "nvlink" else entry.pcie_gbs
    return None if both is None else both / 2 * GB


def format_link_table() -> str:
    """The table :func:`link_peak` reads, as text, with its sources."""
    lines = [
        "GPU-to-GPU links (datasheet, GB/s in both directions; one direction is half)",
        f"{'part':24} {'NVLink':>7} {'PCIe':>9} {'GB/s':>5}  torch reports",
    ]
    for e in LINKS:
        nv = "-" if e.nvlink_gbs is None else f"{e.nvlink_gbs:g}"
        lines.append(
            f"{e.part:24} {nv:>7} {e.pcie:>9} {e.pcie_gbs:>5g}  {', '.join(e.torch_names)}"
        )
    return "\n".join(lines + ["Sources:", *(f"  {e.part}: {e.source}" for e in LINKS)])


def parse_topology(text: str, a: int = 0, b: int = 1) -> str | None:
    """The ``nvidia-smi topo -m`` entry for GPUs ``a`` and ``b`` ("NV18", "PIX", "SYS"...)."""
    check_int("a", a, minimum=0)
    check_int("b", b, minimum=0)
    rows = [line.split() for line in text.splitlines() if line.strip()]
    # The header names the columns (GPU0 GPU1 ... CPU Affinity); a matrix row has an "X"
    # on the diagonal, and starts with its GPU's name.
    header = next((r for r in rows if "GPU0" in r and "X" not in r), None)
    row = next((r for r in rows if r[0] == f"GPU{a}" and "X" in r), None)
    if header is None or row is None or f"GPU{b}" not in header:
        return None
    column = header.index(f"GPU{b}") + 1  # the row starts with its own name
    return row[column] if column < len(row) else None


def gpu_link(a: int = 0, b: int = 1) -> str | None:
    """ "nvlink" or "pcie": what joins GPUs ``a`` and ``b`` per ``nvidia-smi topo -m``; None
    when nvidia-smi is missing or does not say."""
    if shutil.which("nvidia-smi") is None:
        return None
    try:
        out = subprocess.run(
            ["nvidia-smi", "topo", "-m"], capture_output=True, text=True, timeout=30
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    entry = parse_topology(out, a, b)
    if entry is None or entry == "X":
        return None
    return "nvlink" if entry.startswith("NV") else "pcie"


def _union(intervals):
    merged = []
    for start, end in sorted(intervals):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return merged


def overlap_summary(events, comm_name: str, backward_prefix: str, skip=()) -> dict:
    """When backward computed and the all-reduces ran, from one step's profiler events.

    ``events``: dicts with ``name``, ``start_us``, ``end_us``. Backward ops are those whose
    name starts with ``backward_prefix`` and contains none of the strings in ``skip`` (e.g.
    ``("AccumulateGrad",)``: the hook from which DDP launches a bucket's all-reduce);
    communication, those named ``comm_name`` (e.g. ``"gloo:all_reduce"``). Returns the
    backward window, the communication intervals in order, and the microseconds of
    communication that ran while backward was still computing (``overlap_us``).
    """
    if isinstance(skip, str):
        raise ValueError(f"skip must be a sequence of strings, not the str {skip!r}")
    backward = [
        (e["start_us"], e["end_us"])
        for e in events
        if e["name"].startswith(backward_prefix) and not any(s in e["name"] for s in skip)
    ]
    comm = sorted((e["start_us"], e["end_us"]) for e in events if e["name"] == comm_name)
    if not backward:
        raise ValueError(f"events: no backward op (name starting {backward_prefix!r})")
    if not comm:
        raise ValueError(f"events: no communication event named {comm_name!r}")
    start, end = min(s for s, _ in backward), max(e for _, e in backward)
    merged = _union(comm)
    return {
        "backward_us": (start, end),
        "backward_ops_us": sorted(backward),
        "comm_us": comm,
        "first_comm_start_us": comm[0][0],
        "overlap_us": sum(max(0.0, min(e, end) - max(s, start)) for s, e in merged),
        "comm_total_us": sum(e - s for s, e in merged),
    }


NCCL_KERNEL_PREFIXES = ("ncclDevKernel", "ncclKernel")  # NCCL 2.19 and later; before


def is_nccl_kernel(name: str) -> bool:
    """Whether a GPU kernel's name is one of NCCL's (``ncclDevKernel_AllReduce_Sum_f32_...``)."""
    return isinstance(name, str) and name.startswith(NCCL_KERNEL_PREFIXES)


def kernel_overlap_summary(kernels, events, backward_prefix: str, skip=()) -> dict:
    """:func:`overlap_summary` from what the GPU ran: backward kernels against NCCL's.

    ``kernels``: dicts with ``name``, ``start_us``, ``end_us`` (when the kernel ran) and
    ``launched_us`` (when the CPU op that launched it started, or ``None``). ``events``: the
    CPU's events, as for :func:`overlap_summary`. A *backward kernel* is one launched by a
    backward op (its ``launched_us`` inside the interval of a CPU event whose name starts
    with ``backward_prefix`` and contains none of ``skip``) that is not NCCL's; the
    communication is NCCL's kernels (:func:`is_nccl_kernel`). Returns the keys of
    :func:`overlap_summary`, the window spanning the backward kernels, plus
    ``concurrent_us``: the microseconds during which an NCCL kernel and a backward kernel
    ran at the same time (the window also counts the gaps between backward kernels).
    """
    if isinstance(skip, str):
        raise ValueError(f"skip must be a sequence of strings, not the str {skip!r}")
    ops = [
        (e["start_us"], e["end_us"])
        for e in events
        if e["name"].startswith(backward_prefix) and not any(s in e["name"] for s in skip)
    ]

    def by_backward(k) -> bool:
        at = k.get("launched_us")
        return at is not None and any(start <= at <= end for start, end in ops)

    backward = [k for k in kernels if not is_nccl_kernel(k["name"]) and by_backward(k)]
    comm = [k for k in kernels if is_nccl_kernel(k["name"])]
    if not backward:
        raise ValueError(
            f"kernels: none was launched by a backward op (a CPU event starting {backward_prefix!r})"
        )
    if not comm:
        raise ValueError(f"kernels: no NCCL kernel (a name starting {NCCL_KERNEL_PREFIXES})")
    renamed = [{**k, "name": backward_prefix + "kernel"} for k in backward]
    renamed += [{**k, "name": "nccl kernel"} for k in comm]
    summary = overlap_summary(renamed, "nccl kernel", backward_prefix)
    busy = _union((k["start_us"], k["end_us"]) for k in backward)
    summary["concurrent_us"] = sum(
        max(0.0, min(e, b) - max(s, a)) for s, e in _union(summary["comm_us"]) for a, b in busy
    )
    return summary
