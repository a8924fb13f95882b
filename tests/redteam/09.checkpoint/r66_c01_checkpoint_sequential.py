# expect: pass
# hint:
# Right: torch's own checkpoint_sequential, non-reentrant; its split (last, unchecked segment
# takes the remainder) is the one exception the prompt allows, and it keeps the RNG state.
from torch.utils.checkpoint import checkpoint_sequential


def answer(blocks, x, segments):
    return checkpoint_sequential(blocks, segments, x, use_reentrant=False)
