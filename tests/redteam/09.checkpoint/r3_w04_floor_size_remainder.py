# expect: fail segments of n // segments blocks, the remainder in one long last segment
# hint: at most 3
from torch.utils.checkpoint import checkpoint
def run(seg, h):
    for b in seg:
        h = b(h)
    return h
def answer(blocks, x, segments):
    size = len(blocks) // segments
    h = x
    for s in range(segments):
        seg = list(blocks)[s * size:] if s == segments - 1 else list(blocks)[s * size:(s + 1) * size]
        h = checkpoint(run, seg, h, use_reentrant=False)
    return h
