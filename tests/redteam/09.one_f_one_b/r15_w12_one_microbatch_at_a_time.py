# expect: fail each micro-batch runs forward through every stage then backward before the next: no warm-up (F B F B on every stage)
# hint: warm.?up|1f1b'?s order|F ?B ?F ?B|one (micro-batch )?at a time
import torch


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    """One forward, one backward: each micro-batch goes all the way down and back up."""
    total = torch.zeros(())
    for xm, ym in zip(torch.tensor_split(x, min(n_micro, len(x))), torch.tensor_split(y, min(n_micro, len(x)))):
        inputs, outputs = [], []
        h = xm
        for k, stage in enumerate(stages):
            if k > 0:
                h = h.detach().requires_grad_()
            inputs.append(h)
            h = stage(h)
            outputs.append(h)
        loss = loss_fn(h, ym) * (len(xm) / len(x))
        loss.backward()
        total += loss.detach()
        for k in range(len(stages) - 2, -1, -1):
            outputs[k].backward(inputs[k + 1].grad)
    return total


answer = one_f_one_b_step
