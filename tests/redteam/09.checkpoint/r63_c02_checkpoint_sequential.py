# expect: pass
# hint:
# Right: torch's own checkpoint_sequential, non-reentrant; its split (last, unchecked segment
# takes the remainder) is allowed by the prompt in so many words.
from torch.utils.checkpoint import checkpoint_sequential


def answer(blocks, x, segments):
    return checkpoint_sequential(list(blocks), segments, x, use_reentrant=False)
