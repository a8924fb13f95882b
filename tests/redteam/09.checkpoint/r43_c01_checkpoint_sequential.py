# expect: pass delegates to torch's checkpoint_sequential with use_reentrant=False, whose own split (last, unchecked segment taking the remainder) the prompt accepts
# hint: 
# name: checkpointed_forward
from torch.utils.checkpoint import checkpoint_sequential


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    return checkpoint_sequential(list(blocks), segments, x, use_reentrant=False)
