# expect: fail balances the segments by parameter count, not by number of blocks, so blocks of different sizes get uneven segments
# hint: param|balanc|count(ed)? in blocks|blocks?,? not|segment.*(size|long|length)|ceil|uneven|different sizes|too long|longer
# Wrong: for equal blocks it cuts like tensor_split, but with blocks of different sizes the
# segments' lengths follow the parameters (the prompt: counted in blocks, not balanced by parameters).
import bisect
import functools
import itertools

from torch.utils.checkpoint import checkpoint


def _run(seg_blocks, h):
    for block in seg_blocks:
        h = block(h)
    return h


def answer(blocks, x, segments):
    n = len(blocks)
    sizes = [sum(p.numel() for p in b.parameters()) or 1 for b in blocks]
    cumulative = list(itertools.accumulate(sizes))
    total = cumulative[-1]
    cuts = [0]
    for k in range(1, segments):
        # first block boundary at or past k/segments of the parameters, each segment non-empty
        cut = bisect.bisect_left(cumulative, k * total / segments) + 1
        cut = min(max(cut, cuts[-1] + 1), n - (segments - k))
        cuts.append(cut)
    cuts.append(n)
    h = x
    for start, end in itertools.pairwise(cuts):
        h = checkpoint(functools.partial(_run, blocks[start:end]), h, use_reentrant=False)
    return h
