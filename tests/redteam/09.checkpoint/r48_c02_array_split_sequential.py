# expect: pass numpy.array_split for the bounds, an nn.Sequential per segment, last segment unchecked
# hint:
import numpy as np
from torch import nn
from torch.utils.checkpoint import checkpoint


def checkpointed_forward(blocks, x, segments):
    parts = [p for p in np.array_split(np.arange(len(blocks)), segments) if len(p)]
    h = x
    for i, part in enumerate(parts):
        seg = nn.Sequential(*(blocks[int(k)] for k in part))  # shares the blocks, binds them now
        if i == len(parts) - 1:
            h = seg(h)  # backward would rerun it at once: no checkpoint
        else:
            h = checkpoint(seg, h, use_reentrant=False, preserve_rng_state=True)
    return h


answer = checkpointed_forward
