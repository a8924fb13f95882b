# expect: fail puts the global RNG state back after the forward, so the caller's stream and the next call's dropout masks repeat
# hint: rng|random|generator|seed|rewind|set_rng_state|fork_rng|same (masks?|numbers)|repeat|advance
# Wrong: recomputation still matches (checkpoint keeps its own copy), but the function resets
# the process's generator outside fork_rng: every call draws the same dropout masks, and the
# caller's next random numbers repeat the ones the blocks used.
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(seg_blocks, h):
    for block in seg_blocks:
        h = block(h)
    return h


def answer(blocks, x, segments):
    state = torch.get_rng_state()  # leave the process's random numbers as found
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        segment = functools.partial(_run, blocks[int(part[0]) : int(part[-1]) + 1])
        h = checkpoint(segment, h, use_reentrant=False)
    torch.set_rng_state(state)
    return h
