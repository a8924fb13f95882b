# expect: fail steps of floor(len/segments) blocks, so a remainder adds extra segments (10 blocks in 4 -> 5 segments of 2)
# hint: segments? (count|number)|how many segments|exactly|more (than|segments)|too many|extra segment|remainder|floor|uneven|not a multiple|segments where|your number of segments
# Wrong: right when segments divides len(blocks); otherwise the range(0, n, n // segments)
# steps make more than `segments` checkpointed segments (the prompt asks for exactly that many).
import functools

from torch.utils.checkpoint import checkpoint


def _run(seg_blocks, h):
    for block in seg_blocks:
        h = block(h)
    return h


def answer(blocks, x, segments):
    n = len(blocks)
    step = max(1, n // segments)
    h = x
    for start in range(0, n, step):
        h = checkpoint(functools.partial(_run, blocks[start : start + step]), h, use_reentrant=False)
    return h
