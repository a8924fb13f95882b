# expect: fail turns on autograd's anomaly detection (a process-wide setting) to trace bad gradients and never turns it off: every later backward in the process runs slower, with its checks
# hint: anomaly|detect|process.?wide|global|setting|left (on|changed)|restor|put back
import torch

from d2lgpu.pipeline import micro_batches


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    torch.autograd.set_detect_anomaly(True)  # a NaN in backward names the forward op
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    losses = []
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro), strict=True):
        h = stage1(xb.to(dev1))
        out = stage2(h.to(dev2))
        losses.append(loss_fn(out, yb.to(dev2)) * (len(xb) / len(x)))
    loss = torch.stack(losses).sum()
    loss.backward()
    return loss.detach()


answer = pipeline_step
