# expect: pass checkpoint_sequential's own split written by hand (floor-sized checkpointed segments, the last, unchecked one takes the remainder: 11 in 4 is 2, 2, 2, then 5), which the prompt accepts as an exception
# hint: 
import itertools

from torch.utils.checkpoint import checkpoint


def _chain(h, *part):
    for block in part:
        h = block(h)
    return h


def answer(blocks, x, segments):
    size = len(blocks) // segments
    it = iter(blocks)
    chunks = [tuple(itertools.islice(it, size)) for _ in range(segments - 1)]
    rest = tuple(it)  # the remainder joins the last segment, as checkpoint_sequential does
    h = x
    for chunk in chunks:
        h = checkpoint(_chain, h, *chunk, use_reentrant=False)
    return _chain(h, *rest)
