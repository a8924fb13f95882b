# expect: pass tensor_split of the block list, lambda with default-argument binding, last segment left unchecked
# hint: 
import torch
from torch.utils.checkpoint import checkpoint


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    parts = [list(p) for p in torch.tensor_split(torch.arange(len(blocks)), segments)]
    h = x
    for i, part in enumerate(parts):
        members = [blocks[k] for k in part]
        run = lambda inp, members=members: _apply(members, inp)  # noqa: E731  bound now
        if i == len(parts) - 1:
            h = run(h)  # backward would recompute it at once: no checkpoint needed
        else:
            h = checkpoint(run, h, use_reentrant=False)
    print(f"{len(blocks)} blocks in {len(parts)} segments of {[len(p) for p in parts]}")
    return h


def _apply(members, h):
    for block in members:
        h = block(h)
    return h


answer = checkpointed_forward
