# expect: pass a closure factory binding each segment's bounds, integer edges k*n//S
# hint: 
from torch.utils.checkpoint import checkpoint


def _runner(blocks, start, stop):
    def run(h):
        for i in range(start, stop):
            h = blocks[i](h)
        return h

    return run


def answer(blocks, x, segments):
    n = len(blocks)
    edges = [k * n // segments for k in range(segments + 1)]
    h = x
    for start, stop in zip(edges[:-1], edges[1:]):
        if stop > start:
            h = checkpoint(_runner(blocks, start, stop), h, use_reentrant=False)
    return h
