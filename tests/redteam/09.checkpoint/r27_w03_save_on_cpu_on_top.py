# expect: fail wraps the checkpointed forward in torch.autograd.graph.save_on_cpu "to save even more": on a GPU every tensor kept for backward (each segment's input, the last segment's activations) is copied to the host in the forward and back in the backward, transfers the exercise does not ask for, and the innermost hooks hide those saved tensors from any outer saved_tensors_hooks (the byte count); on the CPU the copies are no-ops
# hint: save_on_cpu|offload|host|to the cpu|transfer|cop(y|ies)|saved_tensors_hooks|hook
# name: checkpointed_forward
import functools

import torch
from torch.autograd.graph import save_on_cpu
from torch.utils.checkpoint import checkpoint


def _run(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    # checkpointing keeps only the segments' inputs; offloading moves even those off the device
    with save_on_cpu(pin_memory=torch.cuda.is_available()):
        h = x
        for part in torch.tensor_split(torch.arange(len(blocks)), segments):
            if len(part) == 0:
                continue
            seg = functools.partial(_run, blocks[int(part[0]) : int(part[-1]) + 1])
            h = checkpoint(seg, h, use_reentrant=False)
    return h
