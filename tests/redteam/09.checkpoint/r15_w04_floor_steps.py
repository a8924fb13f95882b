# expect: fail steps of floor(N/S) blocks: 10 blocks in 3 gives 4 segments (3, 3, 3, 1)
# hint: segments where \d+ were asked|floor|more segments|too many segments|extra segment|number of segments|segment count|how many segments|exactly|tensor_split
import functools

from torch.utils.checkpoint import checkpoint


def _run(blocks, h):
    for block in blocks:
        h = block(h)
    return h


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    size = max(1, len(blocks) // segments)
    h = x
    for start in range(0, len(blocks), size):
        h = checkpoint(functools.partial(_run, blocks[start : start + size]), h, use_reentrant=False)
    return h


answer = checkpointed_forward
