# expect: fail Runs the forwards under torch.autograd.graph.save_on_cpu() to save device memory: every tensor saved for backward is copied to the host with a blocking copy (pin_memory=False), a hidden wait for the device in every operation of the forward, so stage 1 cannot run ahead; on the CPU it does nothing, on GPUs it stalls the pipeline.
# hint: (save_on_cpu|offload|host copy|copies? to the host|blocking|synchroni|sync|wait|\.cpu\(\))
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    """GPipe step; the saved activations parked on the host until backward."""
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    rows = len(x)
    count = min(n_micro, rows)
    weighted = []
    with torch.autograd.graph.save_on_cpu():  # all micro-batches in flight: keep them off the GPU
        for xs, ys in zip(torch.tensor_split(x, count), torch.tensor_split(y, count)):
            out = stage2(stage1(xs.to(dev1)).to(dev2))
            weighted.append(loss_fn(out, ys.to(dev2)) * (len(xs) / rows))
    total = torch.stack(weighted).sum()
    total.backward()
    return total.detach()
