# expect: pass boundaries i*N//S (sizes differ by at most one, smaller first), closures from a factory function, all checkpointed
# hint: 
from torch.utils.checkpoint import checkpoint


def _make_segment(blocks, start, end):
    def segment(h):
        for k in range(start, end):
            h = blocks[k](h)
        return h

    return segment


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    n = len(blocks)
    cuts = [i * n // segments for i in range(segments + 1)]  # 10 in 3: 0, 3, 6, 10
    h = x
    for start, end in zip(cuts, cuts[1:]):
        h = checkpoint(_make_segment(blocks, start, end), h, use_reentrant=False)
    return h


answer = checkpointed_forward
