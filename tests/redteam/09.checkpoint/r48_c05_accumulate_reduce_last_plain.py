# expect: pass itertools.accumulate of sizes (remainder to the last segments), functools.reduce inside each segment, last one run plain
# hint:
import functools
import itertools

from torch.utils.checkpoint import checkpoint


def _apply_all(mods, h):
    return functools.reduce(lambda acc, m: m(acc), mods, h)


def checkpointed_forward(blocks, x, segments):
    n = len(blocks)
    q, r = divmod(n, segments)
    sizes = [q + (1 if i >= segments - r else 0) for i in range(segments)]  # 10 in 3: 3, 3, 4
    ends = list(itertools.accumulate(sizes))
    starts = [0] + ends[:-1]
    pieces = [tuple(blocks[a:b]) for a, b in zip(starts, ends) if b > a]
    *head, last = pieces
    h = x
    for mods in head:
        h = checkpoint(functools.partial(_apply_all, mods), h, use_reentrant=False)
    return _apply_all(last, h)


answer = checkpointed_forward
