# expect: fail copies each micro-batch's activations into ONE preallocated receive buffer on stage 2's device (copy_ in place), as a real pipeline's recv buffer: stage 2 saved that buffer for its backward, the next copy_ overwrites it, and backward fails (modified by an inplace operation) or would use the wrong activations
# hint: in.?place|buffer|reuse|overwrit|copy_|version|modified|same tensor
import torch

from d2lgpu.pipeline import micro_batches


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    recv = None  # one receive buffer, reallocated only when the shape changes
    total = 0
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        h = stage1(xb.to(d1))
        if recv is None or recv.shape != h.shape:
            recv = torch.empty(h.shape, dtype=h.dtype, device=d2)
        recv.copy_(h)  # autograd follows copy_, so the gradient still reaches stage 1
        out = stage2(recv)
        total = total + loss_fn(out, yb.to(d2)) * (len(xb) / len(x))
    total.backward()
    return total.detach()
