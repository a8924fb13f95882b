# expect: pass torch's checkpoint_sequential on a list of the blocks (its own split, last segment unchecked), use_reentrant=False
# hint:
from torch.utils.checkpoint import checkpoint_sequential


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    modules = list(blocks)  # a snapshot: backward reruns these very modules
    if not modules:
        return x
    return checkpoint_sequential(modules, min(segments, len(modules)), x, use_reentrant=False)


answer = checkpointed_forward
