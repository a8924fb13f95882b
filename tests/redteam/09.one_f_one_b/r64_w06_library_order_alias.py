# expect: fail takes the orders from d2lgpu.pipeline's one_f_one_b_order (imported under another name), which the prompt forbids
# hint: one_f_one_b_order|d2lgpu\.pipeline|order helper|helper|(write|wrote) the orders? yourself|your own order|library'?s order|forbid|not allowed
# WRONG: everything the step does is right, but the per-stage orders come from the course's
# helper, through a module alias; the prompt asks for the orders written by hand.
import torch

import d2lgpu.pipeline as pp


def answer(stages, x, y, loss_fn, n_micro):
    xs, ys = pp.micro_batches(x, n_micro), pp.micro_batches(y, n_micro)
    S, M = len(stages), len(xs)
    plan = pp.one_f_one_b_order(S, M)
    pos, done = [0] * S, set()
    inputs, outputs, losses = {}, {}, []
    while any(pos[k] < len(plan[k]) for k in range(S)):
        moved = False
        for k in range(S):
            if pos[k] == len(plan[k]):
                continue
            phase, i = plan[k][pos[k]]
            if phase == "F":
                if k > 0 and ("F", k - 1, i) not in done:
                    continue
                h = xs[i] if k == 0 else outputs[k - 1, i].detach().requires_grad_()
                out = stages[k](h)
                if k == S - 1:
                    out = loss_fn(out, ys[i]) * (len(xs[i]) / len(x))
                inputs[k, i], outputs[k, i] = h, out
            else:
                if k < S - 1 and ("B", k + 1, i) not in done:
                    continue
                out = outputs.pop((k, i))
                if k == S - 1:
                    out.backward()
                    losses.append(out.detach())
                else:
                    out.backward(inputs.pop((k + 1, i)).grad)
            done.add((phase, k, i))
            pos[k] += 1
            moved = True
        if not moved:
            raise RuntimeError("stuck")
    return torch.stack(losses).sum()
