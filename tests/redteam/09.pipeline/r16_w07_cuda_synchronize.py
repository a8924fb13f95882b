# expect: fail synchronizes stage 1's GPU after every micro-batch, so stage 1 never runs ahead (only on CUDA, unseen on the CPU)
# hint: synchroni[sz]e|sync|wait|run ahead|stall
import torch

from d2lgpu.pipeline import micro_batches


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    losses = []
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        h = stage1(xb.to(d1))
        if h.is_cuda:
            torch.cuda.synchronize(h.device)  # make sure the activations are ready to send
        out = stage2(h.to(d2))
        losses.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    loss = torch.stack(losses).sum()
    loss.backward()
    return loss.detach()
