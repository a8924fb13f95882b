# expect: fail balances the segments by parameter count instead of counting blocks: segments longer than ceil(n/segments)
# hint: param|balanc|longer|ceil|at most|blocks
import functools
import itertools

from torch.utils.checkpoint import checkpoint


def _run(part, h):
    for block in part:
        h = block(h)
    return h


def _cuts(blocks, segments):
    """Boundaries that give each segment about the same number of parameters."""
    weights = [sum(p.numel() for p in b.parameters()) or 1 for b in blocks]
    cum = list(itertools.accumulate(weights))
    total, n = cum[-1], len(blocks)
    cuts, prev = [0], 0
    for k in range(1, segments):
        target = total * k / segments
        i = next(j + 1 for j in range(n) if cum[j] >= target)
        i = max(i, prev + 1)
        i = min(i, n - (segments - k))
        cuts.append(i)
        prev = i
    cuts.append(n)
    return cuts


def checkpointed_forward(blocks, x, segments):
    cuts = _cuts(blocks, segments)
    h = x
    for start, stop in zip(cuts, cuts[1:]):
        h = checkpoint(functools.partial(_run, blocks[start:stop]), h, use_reentrant=False)
    return h


answer = checkpointed_forward
