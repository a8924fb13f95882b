"""d2lgpu.versions: each function gives the same answer on every torch the course supports
(the lock's, and the floor's in ``make test-floor``), whichever side of its version branch
that torch takes, and that answer is what torch really does."""

from __future__ import annotations

import pytest

from d2lgpu import versions

# --- ddp_default_bucket_cap_mb (chapter 10) ---------------------------------------------------


def _ddp_default_cap_bytes(rank, world):
    """The bucket cap, in bytes, of a DDP built without ``bucket_cap_mb``, and of one with 3."""
    import torch
    from torch.nn.parallel import DistributedDataParallel as DDP

    model = torch.nn.Linear(4, 4)
    return DDP(model).bucket_bytes_cap, DDP(model, bucket_cap_mb=3).bucket_bytes_cap


def test_ddp_default_bucket_cap_is_the_one_ddp_uses():
    from d2lgpu.ranks import run_ranks

    cap = versions.ddp_default_bucket_cap_mb()
    assert isinstance(cap, int) and cap == 25, (
        f"expected 25 (MiB) on every supported torch, got {cap!r}"
    )
    ((default_bytes, three_mib),) = run_ranks(_ddp_default_cap_bytes, world=1)
    assert three_mib == 3 * 2**20, (
        f"bucket_cap_mb=3 should cap at {3 * 2**20} bytes, got {three_mib}"
    )
    assert default_bytes == cap * 2**20, (
        f"DDP without bucket_cap_mb caps its buckets at {default_bytes} bytes, "
        f"not {cap} MiB = {cap * 2**20} bytes as ddp_default_bucket_cap_mb() says"
    )


def test_ddp_default_bucket_cap_is_none_when_torch_says_nothing(monkeypatch):
    import inspect

    from torch.nn.parallel import distributed as ddp_module

    monkeypatch.delattr(ddp_module, "_DEFAULT_BUCKET_CAP_MB", raising=False)

    def no_source(obj):
        raise OSError("could not get source code")

    monkeypatch.setattr(inspect, "getsource", no_source)
    assert versions.ddp_default_bucket_cap_mb() is None


@pytest.mark.parametrize(
    ("init_source", "expected"),
    [
        ("    if bucket_cap_mb is None:\n        bucket_cap_mb = 25\n", 25),  # torch 2.11's way
        ("    bucket_cap_mb = bucket_cap_mb or 25\n", None),  # not a number on its own: not read
    ],
)
def test_ddp_default_bucket_cap_read_from_the_source_without_the_name(
    monkeypatch, init_source, expected
):
    import inspect

    from torch.nn.parallel import distributed as ddp_module

    monkeypatch.delattr(ddp_module, "_DEFAULT_BUCKET_CAP_MB", raising=False)
    monkeypatch.setattr(inspect, "getsource", lambda obj: init_source)
    assert versions.ddp_default_bucket_cap_mb() == expected
