"""``10.overlap_ddp``'s models and bucket rules (:mod:`._ch10_overlap`, :mod:`.ch10_ddp_by_hand`).

:func:`overlap_net` is the small MLP the answer wraps: an ``nn.Sequential``, or, for the run
on three ranks, the same layers registered in another order than forward runs them
(:class:`OutOfOrderNet`), so that backward's order of gradients is not the reverse of
``model.parameters()``. :func:`bucket_members` fills buckets from parameters in a given order
(DDP's rule or the one that never exceeds the cap); :func:`bucket_numels` gives their sizes in
elements, and :func:`by_completion` puts buckets in the order their last gradient arrives.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from ._ch10_by_hand import SEED

__all__ = ["OutOfOrderNet", "bucket_members", "bucket_numels", "by_completion", "overlap_net"]


class OutOfOrderNet(nn.Module):
    """The Sequential's three layers, registered as fc1, fc3, fc2 and run fc1, fc2, fc3:
    backward's gradients arrive as fc3's, fc2's, fc1's, not in reverse registration order."""

    def __init__(self):
        super().__init__()
        self.fc1, self.fc3, self.fc2 = nn.Linear(6, 16), nn.Linear(16, 3), nn.Linear(16, 16)

    def forward(self, x):
        return self.fc3(F.relu(self.fc2(F.relu(self.fc1(x)))))


def overlap_net(dtype=torch.float32, out_of_order=False):
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(SEED)
        if out_of_order:
            return OutOfOrderNet().to(dtype)
        return nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 16), nn.ReLU(),
                             nn.Linear(16, 3)).to(dtype)  # fmt: skip


def bucket_members(sizes_bytes, cap, close_at_cap=True) -> list[list[int]]:
    """The positions (in ``sizes_bytes``' order) of each bucket's parameters, filled in that
    order. ``close_at_cap``: DDP's rule, a bucket closes once it holds ``cap`` bytes or more;
    otherwise a parameter that would take a non-empty bucket past ``cap`` opens the next."""
    buckets: list[list[int]] = []
    current: list[int] = []
    nbytes = 0
    for i, b in enumerate(sizes_bytes):
        if not close_at_cap and current and nbytes + b > cap:
            buckets.append(current)
            current, nbytes = [], 0
        current.append(i)
        nbytes += b
        if close_at_cap and nbytes >= cap:
            buckets.append(current)
            current, nbytes = [], 0
    return buckets + ([current] if current else [])


def bucket_numels(sizes_bytes, numels, cap, close_at_cap=True) -> list[int]:
    """Bucket sizes (elements) when parameters, in the order given, fill buckets of ``cap``."""
    return [sum(numels[i] for i in m) for m in bucket_members(sizes_bytes, cap, close_at_cap)]


def by_completion(buckets: list[list[int]], arrival: list[int]) -> list[list[int]]:
    """``buckets`` (lists of parameter indices) in the order their last gradient arrived
    (``arrival``: parameter indices, first ready first); a parameter that never arrived last."""

    def done(bucket):
        return max(arrival.index(i) if i in arrival else len(arrival) for i in bucket)

    return sorted(buckets, key=done)
