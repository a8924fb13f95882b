# expect: fail cuts segments of equal parameter counts, not equal block counts: with blocks of different sizes a segment runs long
# hint: block|param|balanc|size|long|ceil|segment

import functools

from torch.utils.checkpoint import checkpoint


def _run(seg, h):
    for block in seg:
        h = block(h)
    return h


def checkpointed_forward(blocks, x, segments):
    sizes = [sum(p.numel() for p in b.parameters()) for b in blocks]
    total, target = sum(sizes), sum(sizes) / segments
    cuts, acc = [0], 0
    for i, s in enumerate(sizes):  # a cut each time another 1/segments of the parameters is reached
        acc += s
        if acc >= target * len(cuts) and len(cuts) < segments and i + 1 < len(blocks):
            cuts.append(i + 1)
    cuts.append(len(blocks))
    h = x
    for a, b in zip(cuts, cuts[1:]):
        h = checkpoint(functools.partial(_run, blocks[a:b]), h, use_reentrant=False)
    return h

answer = checkpointed_forward
