# expect: fail divides and conquers: the first half of the blocks gets segments // 2 segments and the second half the rest, so the halves are split by blocks but the segments by count: 16 in 4 or 12 in 4 come out even, but 10 in 3 gives 5, 2, 3 and 9 in 3 gives 4, 2, 3, segments longer than ceil(len(blocks) / segments)
# hint: longer than|too long|at most|ceil|more than \d+ blocks|size|blocks? (in|per) (one |a )?segment|uneven|balanced|differ
# name: checkpointed_forward
import functools

from torch.utils.checkpoint import checkpoint


def _run(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    if segments <= 1 or len(blocks) <= 1:
        return checkpoint(functools.partial(_run, blocks), x, use_reentrant=False)
    half = len(blocks) // 2
    left = segments // 2
    h = checkpointed_forward(blocks[:half], x, left)
    return checkpointed_forward(blocks[half:], h, segments - left)
