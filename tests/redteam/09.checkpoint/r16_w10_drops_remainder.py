# expect: fail segments of len // segments blocks each: the remainder blocks never run when segments does not divide len(blocks)
# hint: remainder|divide|multiple|missing|skipped|never run|dropped|last blocks|evenly
import functools

from torch.utils.checkpoint import checkpoint


def _run(blocks, h):
    for block in blocks:
        h = block(h)
    return h


def answer(blocks, x, segments):
    size = len(blocks) // segments
    h = x
    for s in range(segments):
        segment = functools.partial(_run, blocks[s * size : (s + 1) * size])
        h = checkpoint(segment, h, use_reentrant=False)
    return h
