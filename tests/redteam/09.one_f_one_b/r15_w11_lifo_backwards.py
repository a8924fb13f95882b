# expect: fail backwards taken from a stack (LIFO): each stage's backwards do not go through the micro-batches in order
# hint: in order|order of (the )?backward|0 first|lifo|stack|reverse|1f1b'?s order
import torch


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    """1F1B: warm-up forwards, then one forward and one backward, then the rest of the backwards."""
    S = len(stages)
    xs = list(torch.tensor_split(x, min(n_micro, len(x))))
    ys = list(torch.tensor_split(y, len(xs)))
    M = len(xs)
    kinds = []  # per stage: just the F/B pattern; the micro-batch comes from what is in flight
    for k in range(S):
        w = min(S - k - 1, M)
        kinds.append(["F"] * w + ["F", "B"] * (M - w) + ["B"] * w)
    stack = [[] for _ in range(S)]  # micro-batches in flight on each stage, most recent last
    next_f = [0] * S
    outs, ins = {}, {}
    backed = set()
    total = 0.0
    pos = [0] * S
    while any(pos[k] < len(kinds[k]) for k in range(S)):
        moved = False
        for k in range(S):
            if pos[k] == len(kinds[k]):
                continue
            if kinds[k][pos[k]] == "F":
                i = next_f[k]
                if k > 0 and (k - 1, i) not in outs and (k - 1, i) not in backed:
                    continue
                h = xs[i] if k == 0 else outs[k - 1, i].detach().requires_grad_()
                out = stages[k](h)
                if k == S - 1:
                    out = loss_fn(out, ys[i]) * (len(xs[i]) / len(x))
                outs[k, i], ins[k, i] = out, h
                stack[k].append(i)
                next_f[k] += 1
            else:
                i = stack[k][-1]  # the activations just made are the ones to use first
                if k < S - 1 and (k + 1, i) not in backed:
                    continue
                stack[k].pop()
                out = outs.pop((k, i))
                if k == S - 1:
                    out.backward()
                    total = total + out.detach()
                else:
                    out.backward(ins.pop((k + 1, i)).grad)
                backed.add((k, i))
            pos[k] += 1
            moved = True
        if not moved:
            raise RuntimeError("pipeline stalled")
    return total


answer = one_f_one_b_step
