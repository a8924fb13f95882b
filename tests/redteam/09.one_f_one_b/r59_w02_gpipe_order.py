# expect: fail every stage runs all its forwards, then all its backwards (GPipe's order, not 1F1B's)
# hint: gpipe|every forward|all (the )?forwards|warm-?up (is )?too long|1f1b
import torch

from d2lgpu.pipeline import micro_batches


def _orders(n_stages, m):
    orders = []
    for k in range(n_stages):
        order = [("F", i) for i in range(m)]  # every forward first ...
        order += [("B", i) for i in range(m)]  # ... then every backward
        orders.append(order)
    return orders


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
