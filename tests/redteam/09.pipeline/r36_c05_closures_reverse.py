# expect: pass closures deferring each backward until after all forwards, a running on-device loss sum
# hint:
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    where1 = next(stage1.parameters()).device
    where2 = next(stage2.parameters()).device
    k = min(int(n_micro), x.shape[0])
    backwards = []
    seen = torch.zeros((), device=where2)

    def make_backward(loss):
        def run():
            loss.backward()
        return run

    for idx, (xb, yb) in enumerate(zip(torch.tensor_split(x, k), torch.tensor_split(y, k))):
        share = xb.shape[0] / x.shape[0]
        with torch.enable_grad():
            out = stage2(stage1(xb.to(where1)).to(where2))
        loss = loss_fn(out, yb.to(where2)) * share
        seen = seen + loss.detach()
        backwards.append(make_backward(loss))
    for run in backwards:
        run()
    return seen
