# expect: fail saves torch.get_rng_state() itself and restores it inside each segment function with preserve_rng_state=False: only the CPU generator (a GPU's dropout masks differ on recompute), and backward's recomputation leaves the global RNG rewound to an earlier segment's state
# hint: rng|random|get_rng_state|set_rng_state|generator|cuda|preserve_rng_state|rewound|rewind
# name: checkpointed_forward
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(blocks, h):
    for block in blocks:
        h = block(h)
    return h


def _segment(blocks, state):
    def run(h):
        torch.set_rng_state(state)  # the same random numbers in the forward and the recomputation
        return _run(blocks, h)

    return run


def checkpointed_forward(blocks, x, segments):
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        if len(part) == 0:
            continue
        start, stop = int(part[0]), int(part[-1]) + 1
        state = torch.get_rng_state()
        h = checkpoint(_segment(blocks[start:stop], state), h, use_reentrant=False, preserve_rng_state=False)
    return h
