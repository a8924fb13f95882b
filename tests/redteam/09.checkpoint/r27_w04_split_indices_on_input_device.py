# expect: pass (judged right: exercise 9.2 runs on the CPU, and its prompt sets no rule on host reads (the checker counts none), so an index tensor made on x.device and read with int() is no mistake the exercise asks about; written as: builds the index tensor it splits with torch.arange(..., device=x.device) "to keep everything on the device": each int(part[0]) and int(part[-1]) is then a host read of a device value, two synchronizations per segment on a GPU that stall the launch of the next segment behind all queued work; on the CPU nothing shows)
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
    index = torch.arange(len(blocks), device=x.device)  # same device as the data
    h = x
    for part in torch.tensor_split(index, segments):
        if part.numel() == 0:
            continue
        start, stop = int(part[0]), int(part[-1]) + 1
        h = checkpoint(functools.partial(_run, blocks[start:stop]), h, use_reentrant=False)
    return h
