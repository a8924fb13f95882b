# expect: fail the chapter's run_schedule copied, driven by d2lgpu.pipeline's one_f_one_b_order and schedule_ticks, which the prompt rules out
# hint: one_f_one_b_order|schedule_ticks|d2lgpu\.pipeline|yourself|helper|own
import torch
from d2lgpu.pipeline import micro_batches, one_f_one_b_order, schedule_ticks


def answer(stages, x, y, loss_fn, n_micro):
    """Section 9.7's run_schedule, with loss_fn instead of mse_loss and no timeline."""
    orders = one_f_one_b_order(len(stages), min(n_micro, len(x)))
    xs, ys = [[t.clone() for t in micro_batches(z, n_micro)] for z in (x, y)]
    last = len(stages) - 1
    inputs, outputs, losses = {}, {}, []
    plan = sorted((s.start, s.stage, s.phase, s.micro_batch) for s in schedule_ticks(orders))
    for _, k, phase, i in plan:
        if phase == "forward":
            h = xs[i] if k == 0 else outputs[k - 1, i].detach().requires_grad_()
            out = stages[k](h)
            if k == last:
                out = loss_fn(out, ys[i]) * (len(xs[i]) / len(x))
            inputs[k, i], outputs[k, i] = h, out
        else:
            out = outputs.pop((k, i))
            if k == last:
                out.backward()
                losses.append(out.detach())
            else:
                out.backward(inputs.pop((k + 1, i)).grad)
    return torch.stack(losses).sum()
