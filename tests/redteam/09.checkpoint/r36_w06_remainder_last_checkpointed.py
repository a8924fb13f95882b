# expect: fail floor-sized segments with the remainder in a checkpointed last segment, longer than ceil(n/segments)
# hint: size|long|ceil|uneven|split|remainder|last segment|balanced|differ
# name: checkpointed_forward
from torch.utils.checkpoint import checkpoint


def _make(mods):
    def run(h):
        for m in mods:
            h = m(h)
        return h

    return run


def checkpointed_forward(blocks, x, segments):
    n = len(blocks)
    size = n // segments
    bounds = [(s * size, (s + 1) * size) for s in range(segments - 1)]
    bounds.append(((segments - 1) * size, n))  # the last takes what is left
    h = x
    for a, b in bounds:
        h = checkpoint(_make(list(blocks[a:b])), h, use_reentrant=False)
    return h
