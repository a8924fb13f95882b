# expect: pass torch's checkpoint_sequential with use_reentrant=False (its own split, last segment unchecked)
# hint:
# name: checkpointed_forward
from torch.utils.checkpoint import checkpoint_sequential


def checkpointed_forward(blocks, x, segments):
    return checkpoint_sequential(list(blocks), segments, x, use_reentrant=False)
