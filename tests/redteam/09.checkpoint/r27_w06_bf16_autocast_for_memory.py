# expect: fail runs the checkpointed segments under torch.autocast(bfloat16) to halve the saved bytes as well: the output comes back in bfloat16 with bfloat16 rounding, no longer the plain forward's output (nor its gradients) that the exercise asks for
# hint: autocast|bf16|bfloat16|dtype|precision|half|float32|output (differs|is not|does not)|not close|mismatch
# name: checkpointed_forward
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    h = x
    # checkpointing plus mixed precision: the kept segment inputs take half the bytes
    with torch.autocast(device_type=x.device.type, dtype=torch.bfloat16):
        for part in torch.tensor_split(torch.arange(len(blocks)), segments):
            if len(part) == 0:
                continue
            seg = functools.partial(_run, blocks[int(part[0]) : int(part[-1]) + 1])
            h = checkpoint(seg, h, use_reentrant=False)
    return h
