# expect: pass
# hint:
# Right: the remainder goes to the LAST segments (10 in 3: 3, 3, 4), sizes still differ by
# at most one; a lambda with default arguments binds each segment's bounds; the last segment
# runs without a checkpoint, as checkpoint_sequential does.
from torch.utils.checkpoint import checkpoint


def answer(blocks, x, segments):
    n = len(blocks)
    base, extra = divmod(n, segments)
    bounds, start = [], 0
    for k in range(segments):
        size = base + (1 if k >= segments - extra else 0)
        bounds.append((start, start + size))
        start += size
    h = x
    for k, (a, b) in enumerate(bounds):
        run = lambda h, a=a, b=b: _apply(blocks, a, b, h)  # noqa: E731
        h = run(h) if k == len(bounds) - 1 else checkpoint(run, h, use_reentrant=False)
    return h


def _apply(blocks, a, b, h):
    for i in range(a, b):
        h = blocks[i](h)
    return h
