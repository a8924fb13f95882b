# expect: pass
# hint:
# name: checkpointed_forward
from torch import nn
from torch.utils.checkpoint import checkpoint


def checkpointed_forward(blocks, x, segments):
    n = len(blocks)
    base, extra = divmod(n, segments)
    sizes = [base + 1 if k < extra else base for k in range(segments)]  # 10 in 3: 4, 3, 3
    bounds = [0]
    for size in sizes:
        bounds.append(bounds[-1] + size)
    stages = [nn.Sequential(*blocks[a:b]) for a, b in zip(bounds, bounds[1:])]
    h = x
    for stage in stages[:-1]:
        h = checkpoint(stage, h, use_reentrant=False, preserve_rng_state=True)
    # backward would recompute the last segment at once: run it plainly
    return stages[-1](h)
