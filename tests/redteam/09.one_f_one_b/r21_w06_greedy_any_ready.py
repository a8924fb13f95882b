# expect: fail the driver runs, for each stage, any action of its order that is ready, not only the next one: stages run later forwards ahead of a blocked backward, so with 3 or more micro-batches the orders are no longer 1F1B's
# hint: order|next action|any ready|out of order|in turn|1f1b|warm.up too long|in flight
import torch

from d2lgpu.pipeline import micro_batches


def _orders(S, M):
    """Stage k: min(S - k - 1, M) warm-up forwards, then F and B in turn, then the last Bs."""
    orders = []
    for k in range(S):
        warm = min(S - k - 1, M)
        order = [("F", i) for i in range(warm)]
        for i in range(M - warm):
            order += [("F", warm + i), ("B", i)]
        order += [("B", i) for i in range(M - warm, M)]
        orders.append(order)
    return orders


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    """One 1F1B training step of stages[0], ..., stages[-1] on (x, y); returns the loss."""
    xs, ys = micro_batches(x, n_micro), micro_batches(y, n_micro)
    S, M = len(stages), len(xs)
    last = S - 1
    orders = _orders(S, M)
    done = set()
    inputs, outputs, losses = {}, {}, []
    todo = [list(order) for order in orders]

    def ready(k, kind, i):
        if kind == "F":
            return k == 0 or ("F", k - 1, i) in done
        if k == last:
            return ("F", k, i) in done
        return ("B", k + 1, i) in done

    while any(todo):
        for k in range(S):
            while True:  # run whatever this stage can run now
                pick = next((a for a in todo[k] if ready(k, *a)), None)
                if pick is None:
                    break
                todo[k].remove(pick)
                kind, i = pick
                if kind == "F":
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
                done.add((kind, k, i))
    return torch.stack(losses).sum()


answer = one_f_one_b_step
