# expect: fail copies the activations to stage 2 with non_blocking=True: with stage 2 on the CPU (the notebook's one-GPU layout) stage 2 computes on the copy before it lands (judged right until round 62, when a case put stage 2 on the CPU)
# hint: non.?blocking|landed|race|waited
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    """Each micro-batch's mean loss times its row count, summed, divided by the batch's rows
    once; a generator feeds the micro-batches."""

    def micro(t):
        return torch.tensor_split(t, min(n_micro, len(t)))

    first = next(iter(stage1.parameters())).device
    second = next(iter(stage2.parameters())).device
    row_losses = torch.zeros((), device=second)
    for xb, yb in zip(micro(x), micro(y), strict=True):
        activations = stage1(xb.to(first, non_blocking=True))
        prediction = stage2(activations.to(second, non_blocking=True))
        row_losses = row_losses + loss_fn(prediction, yb.to(second, non_blocking=True)) * xb.shape[0]
    loss = row_losses / x.shape[0]
    loss.backward(inputs=[*stage1.parameters(), *stage2.parameters()])
    return loss.detach().cpu()
