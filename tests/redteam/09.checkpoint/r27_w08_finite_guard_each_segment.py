# expect: pass (judged right: exercise 9.2 runs on the CPU and its prompt sets no rule on host reads; a finiteness check per segment is extra work, not a mistake the prompt names; written as: checks after every segment that the activations are finite with `if not torch.isfinite(h).all(): raise`: each check is a host read of a device value, a synchronization per segment on a GPU (and a full pass over the activations), which stalls the forward; on the CPU it costs little and the values are right)
# hint: 
# name: checkpointed_forward
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    h = x
    for k, part in enumerate(torch.tensor_split(torch.arange(len(blocks)), segments)):
        if len(part) == 0:
            continue
        seg = functools.partial(_run, blocks[int(part[0]) : int(part[-1]) + 1])
        h = checkpoint(seg, h, use_reentrant=False)
        if not torch.isfinite(h).all():  # fail early, naming the segment
            raise FloatingPointError(f"non-finite activations after segment {k}")
    return h
