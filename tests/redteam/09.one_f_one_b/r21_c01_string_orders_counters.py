# expect: pass orders as strings ("F" * warm + "FB" * (M - warm) + "B" * warm) with warm written min(S - k, M) - 1 (the same order as min(S - k - 1, M)), per-stage forward/backward counters, stages swept last to first
# hint: 
import torch


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    """One 1F1B training step of stages[0], ..., stages[-1] on (x, y); returns the loss."""
    S = len(stages)
    M = min(n_micro, len(x))
    xs, ys = torch.tensor_split(x, M), torch.tensor_split(y, M)
    plans = []
    for k in range(S):
        warm = min(S - k, M) - 1  # equals min(S - k - 1, M) whenever it matters
        plans.append("F" * warm + "FB" * (M - warm) + "B" * warm)
    step = [0] * S  # position in the plan
    nf, nb = [0] * S, [0] * S  # forwards / backwards done: micro-batches 0..n-1
    received, produced = {}, {}
    total = torch.zeros(())
    while any(step[k] < len(plans[k]) for k in range(S)):
        for k in reversed(range(S)):
            if step[k] == len(plans[k]):
                continue
            if plans[k][step[k]] == "F":
                i = nf[k]
                if k and nf[k - 1] <= i:
                    continue
                h = xs[i] if k == 0 else produced[k - 1, i].detach().requires_grad_()
                o = stages[k](h)
                if k == S - 1:
                    o = loss_fn(o, ys[i]) * (xs[i].shape[0] / x.shape[0])
                received[k, i], produced[k, i] = h, o
                nf[k] += 1
            else:
                i = nb[k]
                if k < S - 1 and nb[k + 1] <= i:
                    continue
                o = produced.pop((k, i))
                if k == S - 1:
                    o.backward()
                    total = total + o.detach()
                else:
                    torch.autograd.backward(o, received.pop((k + 1, i)).grad)
                nb[k] += 1
            step[k] += 1
    return total


answer = one_f_one_b_step
