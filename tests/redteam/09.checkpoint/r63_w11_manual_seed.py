# expect: fail reseeds the global RNG (torch.manual_seed) in each segment instead of preserve_rng_state: other dropout masks than a plain forward's, and the process's RNG left changed
# hint: seed|rng|random|generator|dropout|mask
# Wrong: forward and recomputation draw the same masks (same seed), so it looks consistent,
# but not the masks the plain forward draws, and it resets the caller's global generator.
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _seeded(mods, seed, h):
    torch.manual_seed(seed)  # the same masks in the recomputation
    for m in mods:
        h = m(h)
    return h


def answer(blocks, x, segments):
    base = int(torch.randint(0, 2**31 - 1, (1,)))
    h = x
    for k, part in enumerate(torch.tensor_split(torch.arange(len(blocks)), segments)):
        seg = functools.partial(_seeded, blocks[int(part[0]) : int(part[-1]) + 1], base + k)
        h = checkpoint(seg, h, use_reentrant=False, preserve_rng_state=False)
    return h
