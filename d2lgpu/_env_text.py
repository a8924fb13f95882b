""":func:`d2lgpu.devices.env_report`'s report as lines to read, or a block to paste into an
issue (``python -m d2lgpu env``).

What it is not: what gathers the report (:mod:`d2lgpu.devices`); this only writes it out.
"""

from __future__ import annotations

from ._device_names import ENV_VAR as DEVICE_ENV_VAR

__all__ = ["format_report"]

_PASTE_HEADER = "To report a problem, paste this whole block, from ```text to ```, into the issue:"


def format_report(r: dict, *, paste: bool = False) -> str:
    """Return :func:`env_report` as readable lines, one ``label  value`` per line.

    With ``paste=True`` (as ``python -m d2lgpu env`` prints it) the lines are
    inside a fenced code block, after a line saying to paste it, so that an
    issue on GitHub shows them as they are.
    """
    rows = [
        ("course", f"commit {r.get('course_commit') or 'unknown'}"),
        ("python", r["python"]),
        ("interpreter", r.get("interpreter") or "unknown"),
        ("OS", r["platform"]),
        ("torch", f"{r['torch']} (CUDA build: {r['cuda_build'] or 'none, CPU only'})"),
        ("torchvision", r.get("torchvision") or "not installed"),
        ("cuDNN", r["cudnn"] or "not available"),
        ("CPU", f"{r['cpu_count']} logical cores, torch uses {r['cpu_threads']} threads"),
    ]
    mps = r.get("mps")
    if mps:
        memory = f", {mps['memory_gib']} GiB recommended (shared)" if mps["memory_gib"] else ""
        rows.append(("Apple GPU", f"{mps['name']} (device 'mps'){memory}"))
    if not r["gpus"] and mps:
        rows.append(
            (
                "CUDA GPUs",
                "none: CUDA-only cells skip, saying why; "
                "D2LGPU_DEVICE=mps and the bench use the Apple GPU",
            )
        )
    elif not r["gpus"]:
        rows.append(("GPUs", "none visible: the course runs on the CPU"))
    for g in r["gpus"]:
        rows.append(
            (
                f"GPU {g['index']}",
                f"{g['name']}, {g['memory_gib']} GiB, "
                f"compute capability {g['compute_capability']}, "
                f"{g['multiprocessors']} SMs, bf16 {'yes' if g['bf16'] else 'no'}",
            )
        )
    if "driver" in r:
        rows.append(("driver", r["driver"] or "none"))
    if "cuda_visible_devices" in r:
        rows.append(("CUDA_VISIBLE_DEVICES", _describe_visible(r["cuda_visible_devices"])))
    if "d2lgpu_device" in r:
        rows.append((DEVICE_ENV_VAR, _describe_device_variable(r["d2lgpu_device"])))
    width = max(len(label) for label, _ in rows) + 2
    lines = [f"{label:<{width}}{text}" for label, text in rows]
    if paste:
        lines = [_PASTE_HEADER, "```text", *lines, "```"]
    return "\n".join(lines)


def _describe_visible(value: str | None) -> str:
    """``CUDA_VISIBLE_DEVICES``'s line: unset (every GPU), or its value as set."""
    if value is None:
        return "not set: every GPU is visible"
    if not value.strip():
        return f"{value!r}: empty, so CUDA sees no GPU"
    return value if value == value.strip() else repr(value)


def _describe_device_variable(entry: dict) -> str:
    """``D2LGPU_DEVICE``'s line: unset, or its value and whether it works here."""
    value = entry["value"]
    if value is None:
        return f"not set: default_device() is {entry['device']}"
    shown = value if value and value == value.strip() else repr(value)
    if not entry["valid"]:
        return f"{shown}: {entry['problem']}"
    if not value.strip():
        return f"{shown}: empty, as if not set: default_device() is {entry['device']}"
    return f"{shown}: valid here, default_device() is {entry['device']}"
