# expect: fail calls backward on each micro-batch right after its forward (gradient accumulation), so backwards run before the last forward, not GPipe's all-forwards-then-backwards schedule
# hint: backward.*(before|after each|inside|per micro|every micro)|forward.*before.*backward|all (the )?forwards?|gpipe|schedule|accumulat.*loop
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    total = torch.zeros((), device=d2)
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m)):
        h = stage1(xb.to(d1))
        out = stage2(h.to(d2))
        loss = loss_fn(out, yb.to(d2)) * (len(xb) / len(x))
        loss.backward()  # accumulate this micro-batch's gradients, free its graph
        total = total + loss.detach()
    return total
