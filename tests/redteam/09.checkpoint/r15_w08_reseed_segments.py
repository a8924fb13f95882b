# expect: fail reseeds the global RNG in each segment so recomputation matches: dropout masks differ from the plain forward's
# hint: seed|rng|random|dropout|mask|manual_seed
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(blocks, seed, h):
    torch.manual_seed(seed)  # same seed in forward and recomputation: same dropout masks
    for block in blocks:
        h = block(h)
    return h


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    h = x
    for i, part in enumerate(torch.tensor_split(torch.arange(len(blocks)), segments)):
        segment = functools.partial(_run, blocks[int(part[0]) : int(part[-1]) + 1], 1000 + i)
        h = checkpoint(segment, h, use_reentrant=False, preserve_rng_state=False)
    return h


answer = checkpointed_forward
