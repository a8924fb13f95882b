"""Datasheet peaks of a few GPUs, in a labelled table the reader can see.

What it is for: a roofline-style check ("how close does my matmul get to what
the vendor promises?") needs the device's peak FLOP/s and memory bandwidth.
Those numbers live here, in :data:`DATASHEETS`, one entry per part, each with
its form factor and the vendor document it comes from, never as a constant
hidden in a notebook cell. The table itself is ``datasheets.toml``, beside this
module (shipped with the package), read once when the module is imported.

* :func:`datasheet` finds the entry for the name torch reports
  (``torch.cuda.get_device_name()``), e.g. ``"NVIDIA H100 80GB HBM3"`` is the
  H100 SXM5 part.
* :func:`peak_flops` and :func:`peak_bandwidth` return the peak in FLOP/s and
  bytes/s (``None`` for a device without an entry).
* :func:`format_datasheet_table` prints the table; :func:`format_datasheet_entry`
  one device's line, or ``"<name>: no datasheet entry"``.
* :func:`amp_plan` decides a GPU's mixed precision: bf16 where it has bf16
  tensor cores, fp16 with a ``GradScaler`` where bf16 is only emulated (a T4),
  whether it has TF32, and why, in words; :func:`fast_matmul_dtype` is the
  16-bit dtype its tensor cores multiply (float32 on a CPU).

The numbers are **dense** tensor-core (or vector) peaks: without structured
sparsity. Vendor datasheets often quote the sparse figure, which is 2x the
dense one, marked with an asterisk in small print; this table halves those.
They are peaks at boost clock: a real program gets less, and a *measured*
peak (the best of a few sizes) is the fairer yardstick. FP32 is the
non-tensor-core rate (what a float32 matmul gets with TF32 off, PyTorch's
default), and so is FP64; TF32 is the tensor-core rate for float32 inputs
with TF32 allowed.

What it is not: a hardware database. Names must match exactly (case and
surrounding spaces aside); a variant that is not listed (an H100 NVL, an
A100-SXM4-40GB, the CPU) gets no entry rather than a neighbour's numbers.
The table never touches CUDA: pass the name in. :func:`amp_plan` and
:func:`fast_matmul_dtype` ask ``torch.cuda`` at call time (never at import),
so tests can fake a T4 or an H100 on a CPU (``checks.ch01_devices.fake_gpus``).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from importlib import resources

import torch

__all__ = [
    "DTYPES",
    "DatasheetEntry",
    "DATASHEETS",
    "NO_ENTRY",
    "datasheet",
    "peak_flops",
    "peak_bandwidth",
    "format_datasheet_entry",
    "format_datasheet_table",
    "AmpPlan",
    "amp_plan",
    "fast_matmul_dtype",
]

# The precisions the table has a column for, with the torch dtypes that mean them.
# TF32 is not a storage dtype: it is how tensor cores multiply float32 inputs.
DTYPES = ("bf16", "fp16", "tf32", "fp32", "fp64")
_DTYPE_ALIASES: dict[torch.dtype | str, str] = {
    torch.bfloat16: "bf16",
    torch.float16: "fp16",
    torch.float32: "fp32",
    torch.float64: "fp64",
    "bfloat16": "bf16",
    "float16": "fp16",
    "half": "fp16",
    "float32": "fp32",
    "float": "fp32",
    "float64": "fp64",
    "double": "fp64",
    **{name: name for name in DTYPES},
}

NO_ENTRY = "no datasheet entry"


@dataclass(frozen=True)
class DatasheetEntry:
    """One GPU's vendor peaks. ``tflops`` maps a precision to dense TFLOP/s.

    A precision missing from ``tflops`` is not in this table: the part cannot
    do it (bf16 on a T4) or the entry leaves it out.
    """

    part: str  # the product, as the vendor names it
    form_factor: str  # SXM, PCIe, ... : the same chip differs in clocks and power
    memory: str  # memory type and size
    bandwidth_tbs: float  # memory bandwidth, TB/s (10**12 bytes per second)
    tflops: dict[str, float]  # dense peak TFLOP/s per precision
    source: str  # the vendor document the numbers come from
    torch_names: tuple[str, ...] = field(default=())  # what torch.cuda.get_device_name says
    url: str = ""  # where that document is published


def _load_datasheets() -> tuple[DatasheetEntry, ...]:
    """The entries of ``datasheets.toml``, shipped beside this module, in its order."""
    table = tomllib.loads(resources.files(__package__).joinpath("datasheets.toml").read_text())
    shared = table["compute"]  # peaks shared by parts with the same compute
    return tuple(
        DatasheetEntry(
            part=p["part"],
            form_factor=p["form_factor"],
            memory=p["memory"],
            bandwidth_tbs=p["bandwidth_tbs"],
            tflops=shared[p["compute"]] if "compute" in p else p["tflops"],
            source=p["source"],
            torch_names=tuple(p["torch_names"]),
            url=p["url"],
        )
        for p in table["part"]
    )


DATASHEETS: tuple[DatasheetEntry, ...] = _load_datasheets()


def _normalize(name: str) -> str:
    return " ".join(name.split()).casefold()


_BY_NAME = {_normalize(n): entry for entry in DATASHEETS for n in (entry.part, *entry.torch_names)}


def datasheet(device_name: str) -> DatasheetEntry | None:
    """Return the entry for ``device_name`` (as torch reports it), or ``None``.

    The part's own name (``"NVIDIA H100 SXM5 80GB"``) works too. Matching is
    exact apart from case and whitespace, so an unlisted variant gets ``None``.
    """
    if not isinstance(device_name, str):
        raise TypeError(
            f"device_name must be a str such as torch.cuda.get_device_name() returns, "
            f"got {type(device_name).__name__}"
        )
    return _BY_NAME.get(_normalize(device_name))


def _precision(dtype) -> str:
    key = dtype.casefold() if isinstance(dtype, str) else dtype
    try:
        return _DTYPE_ALIASES[key]
    except (KeyError, TypeError):
        raise ValueError(
            f"dtype must be one of {', '.join(DTYPES)} (or torch.bfloat16, torch.float16, "
            f"torch.float32, torch.float64), got {dtype!r}"
        ) from None


def peak_flops(device_name: str, dtype) -> float | None:
    """Dense datasheet peak of ``device_name`` in FLOP/s for ``dtype``, or ``None``.

    ``dtype`` is a torch dtype (``torch.bfloat16``, ``torch.float16``,
    ``torch.float32``, ``torch.float64``) or one of :data:`DTYPES` (``"tf32"``
    has no torch dtype). ``torch.float32`` means the non-tensor-core fp32 rate.
    ``None`` when the device has no entry or the entry has no such peak; a
    ``ValueError`` for a precision the table does not know.
    """
    precision = _precision(dtype)
    entry = datasheet(device_name)
    if entry is None or precision not in entry.tflops:
        return None
    return entry.tflops[precision] * 1e12


def peak_bandwidth(device_name: str) -> float | None:
    """Datasheet memory bandwidth of ``device_name`` in bytes/s, or ``None``."""
    entry = datasheet(device_name)
    return None if entry is None else entry.bandwidth_tbs * 1e12


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:g}"


def format_datasheet_entry(device_name: str) -> str:
    """One line: ``device_name``'s part, peaks and source, or ``"<name>: no datasheet entry"``."""
    entry = datasheet(device_name)
    if entry is None:
        return f"{device_name}: {NO_ENTRY}"
    peaks = ", ".join(f"{p} {entry.tflops[p]:g}" for p in DTYPES if p in entry.tflops)
    return (
        f"{device_name}: {entry.part} ({entry.form_factor}), dense TFLOP/s {peaks}; "
        f"{entry.memory} at {entry.bandwidth_tbs:g} TB/s (source: {entry.source})"
    )


def format_datasheet_table() -> str:
    """Return the whole table as text: peaks, form factor, the name torch reports, source."""
    header = ["part", "form factor", *(f"{p}" for p in DTYPES), "TB/s", "torch reports"]
    rows = [
        [
            e.part,
            e.form_factor,
            *(_fmt(e.tflops.get(p)) for p in DTYPES),
            f"{e.bandwidth_tbs:g}",
            ", ".join(e.torch_names),
        ]
        for e in DATASHEETS
    ]
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    numeric = set(range(2, 2 + len(DTYPES) + 1))

    def line(cells):
        return "  ".join(
            f"{c:>{w}}" if i in numeric else f"{c:<{w}}"
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    out = [
        "Datasheet peaks: dense TFLOP/s (no sparsity) per precision, memory bandwidth in TB/s",
        line(header),
        line(["-" * w for w in widths]),
        *(line(r) for r in rows),
        "",
        "'-': not in this table. fp32 and fp64: without tensor cores; tf32: fp32 inputs on tensor cores.",
        "Sources:",
        *(f"  {e.part}: {e.source}, {e.url}" for e in DATASHEETS),
    ]
    return "\n".join(out)


@dataclass(frozen=True)
class AmpPlan:
    """The mixed precision a device should train in, and why (:func:`amp_plan`)."""

    dtype: torch.dtype  # what autocast casts the products to
    grad_scaler: bool  # whether a GradScaler must guard fp16's range
    tf32: bool  # whether the device has TF32 tensor cores (Ampere, compute capability 8.0, on)
    reason: str  # in words, with what torch answered


def _cuda_index(device: torch.device) -> int:
    return torch.cuda.current_device() if device.index is None else device.index


def amp_plan(device) -> AmpPlan:
    """bf16 where ``device`` has bf16 tensor cores, else fp16 with a ``GradScaler``.

    The test is ``torch.cuda.is_bf16_supported(including_emulation=False)``: plain
    ``is_bf16_supported()`` answers ``True`` on a T4 (compute capability 7.5) too, where
    bf16 is only emulated, slower than fp32. TF32 exists from compute capability 8.0.
    On a CPU: bf16 (autocast's CPU default), no scaler, no TF32. Asks ``torch.cuda`` now.
    """
    device = torch.device(device)
    if device.type != "cuda":
        return AmpPlan(
            torch.bfloat16, False, False, f"{device.type}: autocast's default bf16, no GradScaler"
        )
    index = _cuda_index(device)
    name = torch.cuda.get_device_name(index)
    major, minor = torch.cuda.get_device_capability(index)
    tf32 = (major, minor) >= (8, 0)
    what = f"{name} (compute capability {major}.{minor})"
    if torch.cuda.is_bf16_supported(including_emulation=False):
        return AmpPlan(
            torch.bfloat16,
            False,
            tf32,
            f"{what} has bf16 tensor cores (is_bf16_supported(including_emulation=False) "
            "is True): bf16, fp32's range, no GradScaler",
        )
    emulated = torch.cuda.is_bf16_supported(including_emulation=True)
    return AmpPlan(
        torch.float16,
        True,
        tf32,
        f"{what} has no bf16 tensor cores (is_bf16_supported(including_emulation=False) is "
        f"False; with emulation {emulated}: bf16 runs only emulated, without tensor cores): "
        "fp16 on its fp16 tensor cores, with a GradScaler for fp16's range",
    )


def fast_matmul_dtype(device) -> torch.dtype:
    """The dtype ``device``'s tensor cores multiply fastest: :func:`amp_plan`'s on a GPU
    (bf16, or fp16 where bf16 is only emulated), ``torch.float32`` on a CPU."""
    device = torch.device(device)
    return amp_plan(device).dtype if device.type == "cuda" else torch.float32
