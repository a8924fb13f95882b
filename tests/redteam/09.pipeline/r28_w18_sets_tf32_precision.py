# expect: fail Calls torch.set_float32_matmul_precision("high") inside the step for speed: a process-wide setting left changed for the caller after the step returns, and on GPUs with TF32 the products (so the loss and the gradients) lose precision against the unsplit model.
# hint: (tf32|matmul_precision|allow_tf32|precision|global (flag|setting|state)|process-wide|left (on|changed))
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    """GPipe step, with TensorFloat-32 products for throughput."""
    torch.set_float32_matmul_precision("high")  # TF32 on Ampere and later
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
    return total.detach()
