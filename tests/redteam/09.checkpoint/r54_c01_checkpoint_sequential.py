# expect: pass torch's checkpoint_sequential on a list of the blocks, non-reentrant (its own split, last segment unchecked)
# hint:
from torch.utils.checkpoint import checkpoint_sequential


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    return checkpoint_sequential(
        list(blocks), segments, x, use_reentrant=False, preserve_rng_state=True
    )


answer = checkpointed_forward
