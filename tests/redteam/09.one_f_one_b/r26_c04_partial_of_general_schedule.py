# expect: pass answer is functools.partial(pipeline_step, warmup=...) of a general step that takes the warm-up rule as an argument (GPipe's or 1F1B's), bound to 1F1B's min(S - k - 1, M); the loop runs synchronous rounds in which every stage that can act on the state at the round's start acts once
# hint: 
import functools

import torch


def one_f_one_b_warmup(S, M, k):
    return min(S - k - 1, M)


def gpipe_warmup(S, M, k):
    return M


def pipeline_step(stages, x, y, loss_fn, n_micro, *, warmup):
    """One training step; stage k runs warmup(S, M, k) forwards, then alternates, then drains."""
    S, M = len(stages), min(n_micro, len(x))
    xs, ys = torch.tensor_split(x, M), torch.tensor_split(y, M)
    todo = []
    for k in range(S):
        w = warmup(S, M, k)
        seq = [("F", i) for i in range(w)]
        for j in range(M - w):
            seq += [("F", w + j), ("B", j)]
        seq += [("B", j) for j in range(M - w, M)]
        todo.append(seq[::-1])  # popped from the end
    fwd = [0] * S  # how many forwards each stage has finished
    bwd = [0] * S
    inp, out, loss_sum = {}, {}, None
    while any(todo):
        snapshot_f, snapshot_b = list(fwd), list(bwd)
        acted = False
        for k in range(S):
            if not todo[k]:
                continue
            kind, i = todo[k][-1]
            if kind == "F" and k > 0 and snapshot_f[k - 1] <= i:
                continue
            if kind == "B" and k < S - 1 and snapshot_b[k + 1] <= i:
                continue
            todo[k].pop()
            acted = True
            if kind == "F":
                h = xs[i] if k == 0 else out[k - 1, i].detach().requires_grad_()
                o = stages[k](h)
                if k == S - 1:
                    o = loss_fn(o, ys[i]) * (xs[i].shape[0] / x.shape[0])
                inp[k, i], out[k, i] = h, o
                fwd[k] += 1
            else:
                o = out.pop((k, i))
                if k == S - 1:
                    o.backward()
                    loss_sum = o.detach() if loss_sum is None else loss_sum + o.detach()
                else:
                    o.backward(inp.pop((k + 1, i)).grad)
                bwd[k] += 1
        if not acted:
            raise RuntimeError("no stage could act: the orders deadlock")
    return loss_sum


answer = functools.partial(pipeline_step, warmup=one_f_one_b_warmup)
