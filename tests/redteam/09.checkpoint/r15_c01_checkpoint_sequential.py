# expect: pass checkpoint_sequential, non-reentrant (its own split, last segment unchecked)
# hint: 
from torch.utils.checkpoint import checkpoint_sequential


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    return checkpoint_sequential(blocks, segments, x, use_reentrant=False)


answer = checkpointed_forward
