# expect: pass
# hint:
# name: checkpointed_forward
import itertools
import math

from torch.utils.checkpoint import checkpoint


def checkpointed_forward(blocks, x, segments):
    n = len(blocks)
    sizes = [math.ceil((n - k) / segments) for k in range(segments)]  # 10 in 3: 4, 3, 3
    ends = list(itertools.accumulate(sizes))
    starts = [0, *ends[:-1]]
    h = x
    for start, end in zip(starts, ends):
        # default arguments bind this segment's blocks now, not when backward calls it
        def run(h, mods=tuple(blocks[start:end])):
            for m in mods:
                h = m(h)
            return h

        h = checkpoint(run, h, use_reentrant=False)
    return h
