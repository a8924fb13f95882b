# expect: fail takes the orders from d2lgpu.pipeline.one_f_one_b_order, called ahead of time at import rather than during the step
# hint: one_f_one_b_order|d2lgpu\.pipeline|helper|yourself|forbidden|write the order
import torch

from d2lgpu.pipeline import micro_batches, one_f_one_b_order


# every schedule the step may need, worked out once when the module loads
_SCHEDULES = {(s, m): one_f_one_b_order(s, m) for s in range(1, 9) for m in range(1, 65)}


def _orders(n_stages, m):
    return [list(order) for order in _SCHEDULES[n_stages, m]]


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    xs, ys = micro_batches(x, n_micro), micro_batches(y, n_micro)
    m, n_stages = len(xs), len(stages)
    orders = _orders(n_stages, m)
    pos = [0] * n_stages
    done = set()
    inputs, outputs, losses = {}, {}, []
    while any(pos[k] < len(orders[k]) for k in range(n_stages)):
        for k in range(n_stages):
            if pos[k] == len(orders[k]):
                continue
            action, i = orders[k][pos[k]]
            if action == "F":
                if k > 0 and ("F", k - 1, i) not in done:
                    continue
                h = xs[i] if k == 0 else outputs[k - 1, i].detach().requires_grad_()
                out = stages[k](h)
                if k == n_stages - 1:
                    out = loss_fn(out, ys[i]) * (len(xs[i]) / len(x))
                inputs[k, i], outputs[k, i] = h, out
            else:
                if k < n_stages - 1 and ("B", k + 1, i) not in done:
                    continue
                out = outputs.pop((k, i))
                if k == n_stages - 1:
                    out.backward()
                    losses.append(out.detach())
                else:
                    out.backward(inputs.pop((k + 1, i)).grad)
            done.add((action, k, i))
            pos[k] += 1
    return torch.stack(losses).sum()


answer = one_f_one_b_step
