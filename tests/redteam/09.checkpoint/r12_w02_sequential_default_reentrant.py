# expect: fail calls checkpoint_sequential without use_reentrant=False, so it falls back to the reentrant implementation (use_reentrant=True is its default)
# hint: reentrant|use_reentrant
# name: checkpointed_forward
from torch.utils.checkpoint import checkpoint_sequential


def checkpointed_forward(blocks, x, segments):
    return checkpoint_sequential(blocks, segments, x)
