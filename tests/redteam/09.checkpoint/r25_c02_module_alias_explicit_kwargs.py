# expect: pass torch.utils.checkpoint imported as a module alias, every keyword spelled out (preserve_rng_state=True, determinism_check, context_fn), segments as nn.Sequential over floor bounds k*n//s, the last run plainly
# hint: 
# name: checkpointed_forward
import torch.utils.checkpoint as tuc
from torch import nn


def checkpointed_forward(blocks, x, segments):
    n = len(blocks)
    cuts = [k * n // segments for k in range(segments + 1)]  # 10 in 3: 0, 3, 6, 10
    parts = [nn.Sequential(*blocks[a:b]) for a, b in zip(cuts, cuts[1:]) if b > a]
    h = x
    for part in parts[:-1]:
        h = tuc.checkpoint(
            part,
            h,
            use_reentrant=False,
            preserve_rng_state=True,
            determinism_check="default",
            context_fn=tuc.noop_context_fn,
        )
    return parts[-1](h)  # the last segment: backward would recompute it at once
