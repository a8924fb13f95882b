# expect: fail preserve_rng_state=False: the recomputation draws different dropout masks
# hint: rng|random|dropout|preserve
import torch
from torch.utils.checkpoint import checkpoint


def _run(part, h):
    for block in part:
        h = block(h)
    return h


def checkpointed_forward(blocks, x, segments):
    h = x
    for idx in torch.tensor_split(torch.arange(len(blocks)), segments):
        part = [blocks[int(i)] for i in idx]
        # skipping the RNG stash "to save time": the blocks are deterministic anyway (not with dropout)
        h = checkpoint(_run, part, h, use_reentrant=False, preserve_rng_state=False)
    return h


answer = checkpointed_forward
