# expect: fail steps of len // segments: the remainder becomes an extra segment (10 in 3: 3, 3, 3, 1)
# hint: remainder|extra segment|floor|number of segments|too many segments|exactly .{0,20}segments|sizes differ|segments where [0-9]+ were asked
import functools

from torch.utils.checkpoint import checkpoint


def _run(blocks, h):
    for block in blocks:
        h = block(h)
    return h


def answer(blocks, x, segments):
    size = max(1, len(blocks) // segments)
    h = x
    for start in range(0, len(blocks), size):
        segment = functools.partial(_run, blocks[start : start + size])
        h = checkpoint(segment, h, use_reentrant=False)
    return h
