# expect: fail the world size is read once, at import time, from WORLD_SIZE (default 2), not from dist.get_world_size() in the call
# hint: world.?size|get_world_size|number of ranks|3 ranks|three ranks|written in|hard.?coded|import
# Wrong: the module is imported in the kernel, where no process group exists and WORLD_SIZE is
# unset, so it divides by 2 whatever the number of ranks (a `/ 2` in disguise).
import os

import torch
import torch.distributed as dist

_WORLD = int(os.environ.get("WORLD_SIZE", "2"))  # torchrun sets it; 2 otherwise


@torch.no_grad()
def answer(model):
    for p in model.parameters():
        if p.grad is None:
            continue
        dist.all_reduce(p.grad)
        p.grad /= _WORLD
