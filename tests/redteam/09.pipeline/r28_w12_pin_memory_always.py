# expect: fail Pins every micro-batch (pin_memory) before sending it to stage 1 with non_blocking=True, whatever the devices: pin_memory needs a CUDA driver, so the step raises on a machine without one (stages on the CPU or on stand-in devices), and where stage 1 is the CPU it is a wasted copy.
# hint: (pin_memory|pinned|page-locked|page locked|no (cuda|gpu|nvidia|driver)|without a gpu)
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    """GPipe step; micro-batches pinned so the host-to-device copies can overlap."""
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    rows = len(x)
    count = min(n_micro, rows)
    weighted = []
    for xs, ys in zip(torch.tensor_split(x, count), torch.tensor_split(y, count)):
        xs = xs.pin_memory().to(dev1, non_blocking=True)
        ys = ys.pin_memory().to(dev2, non_blocking=True)
        out = stage2(stage1(xs).to(dev2))
        weighted.append(loss_fn(out, ys) * (len(xs) / rows))
    total = torch.stack(weighted).sum()
    total.backward()
    return total.detach()
