# expect: fail runs a plain forward under no_grad first, to check the checkpointed output against it: every block runs twice in the forward pass
# hint: twice|once|forward calls|ran \d|each block
import functools
import torch
from torch.utils.checkpoint import checkpoint
def run(blocks, h):
    for b in blocks:
        h = b(h)
    return h
def answer(blocks, x, segments):
    with torch.no_grad():
        reference = run(blocks, x)  # nothing kept: free for memory
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        h = checkpoint(functools.partial(run, blocks[int(part[0]) : int(part[-1]) + 1]), h, use_reentrant=False)
    assert torch.allclose(h, reference, atol=1e-5), "checkpointing changed the output"
    return h
