# expect: pass sizes by divmod (larger segments first), nested def binding bounds by default arguments, last segment unchecked
# hint:
from torch.utils.checkpoint import checkpoint


def checkpointed_forward(blocks, x, segments):
    n = len(blocks)
    base, extra = divmod(n, segments)
    bounds, start = [], 0
    for i in range(segments):
        stop = start + base + (1 if i < extra else 0)
        bounds.append((start, stop))
        start = stop
    h = x
    for i, (a, b) in enumerate(bounds):
        def run(h, a=a, b=b):
            for k in range(a, b):
                h = blocks[k](h)
            return h

        if i == len(bounds) - 1:
            h = run(h)  # backward would recompute it at once
        else:
            h = checkpoint(run, h, use_reentrant=False)
    return h


answer = checkpointed_forward
