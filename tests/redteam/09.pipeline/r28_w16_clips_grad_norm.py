# expect: fail Clips the gradient norm to 1 after the backward, as a training loop would: not asked for, and it rescales the stages' gradients (those already in .grad included) whenever their norm exceeds 1, so they no longer equal the whole batch's.
# hint: (clip|norm|rescal|scaled|chang\w* the gradients|gradients (differ|changed))
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    """GPipe step, with the usual gradient clipping at the end."""
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    rows = len(x)
    count = min(n_micro, rows)
    weighted = []
    for xs, ys in zip(torch.tensor_split(x, count), torch.tensor_split(y, count)):
        out = stage2(stage1(xs.to(dev1)).to(dev2))
        weighted.append(loss_fn(out, ys.to(dev2)) * (len(xs) / rows))
    total = torch.stack(weighted).sum()
    total.backward()
    params = [*stage1.parameters(), *stage2.parameters()]
    torch.nn.utils.clip_grad_norm_(params, max_norm=1.0)  # no host read: stays async
    return total.detach()
