# expect: pass each stage a generator written in torch's form (min(S - k, M) forwards, then backward/forward pairs), d2lgpu's micro_batches, a deque driver
# hint:
from collections import deque

import torch
from d2lgpu.pipeline import micro_batches


def _actions(S, k, M):
    """The same per-stage order as 1F1B's: warm-up + 1 forwards, then B, F pairs, then Bs."""
    first = min(S - k, M)
    yield from (("F", i) for i in range(first))
    for i in range(M - first):
        yield ("B", i)
        yield ("F", first + i)
    yield from (("B", i) for i in range(M - first, M))


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    xs, ys = micro_batches(x, n_micro), micro_batches(y, n_micro)
    S, M, last = len(stages), len(xs), len(stages) - 1
    pending = deque((k, _actions(S, k, M)) for k in range(S))
    nxt = {}  # each stage's action waiting for its needs
    acts, grads_in, outs = set(), {}, {}
    total = torch.zeros(())
    while pending:
        k, gen = pending.popleft()
        if k not in nxt:
            nxt[k] = next(gen, None)
            if nxt[k] is None:
                continue  # this stage is done
        phase, i = nxt[k]
        if phase == "F" and k > 0 and ("F", k - 1, i) not in acts:
            pending.append((k, gen))
            continue
        if phase == "B" and k < last and ("B", k + 1, i) not in acts:
            pending.append((k, gen))
            continue
        if phase == "F":
            h = xs[i] if k == 0 else outs[k - 1, i].detach().requires_grad_()
            out = stages[k](h)
            if k == last:
                out = loss_fn(out, ys[i]) * (len(ys[i]) / len(y))
            grads_in[k, i], outs[k, i] = h, out
        else:
            out = outs.pop((k, i))
            if k == last:
                out.backward()
                total = total + out.detach()
            else:
                out.backward(grads_in.pop((k + 1, i)).grad)
        acts.add((phase, k, i))
        del nxt[k]
        pending.append((k, gen))
    return total


answer = one_f_one_b_step
