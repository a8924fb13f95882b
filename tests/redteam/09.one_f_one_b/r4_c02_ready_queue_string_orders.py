# expect: pass
# hint: 
import collections
import torch
from d2lgpu.pipeline import micro_batches


def order_string(S, k, M):
    """Stage k's order as a string of F and B: warm-up, steady 1F1B, cool-down."""
    w = min(S - k - 1, M)
    return "F" * w + "FB" * (M - w) + "B" * w


def answer(stages, x, y, loss_fn, n_micro):
    """Event-driven: a stage is put on a ready queue whenever something it may wait for finishes."""
    S = len(stages)
    xs, ys = micro_batches(x, n_micro), micro_batches(y, n_micro)
    M = len(xs)
    plans = [order_string(S, k, M) for k in range(S)]
    step = [0] * S
    next_f, next_b = [0] * S, [0] * S
    f_done, b_done = [0] * S, [0] * S  # how many forwards / backwards each stage has run
    received, sent, grads = {}, {}, {}
    total = torch.zeros(())
    ready = collections.deque(range(S))
    while ready:
        k = ready.popleft()
        while step[k] < len(plans[k]):
            action = plans[k][step[k]]
            if action == "F":
                i = next_f[k]
                if k > 0 and f_done[k - 1] <= i:
                    break  # waits for stage k - 1's forward of i
                h = xs[i] if k == 0 else sent[k - 1, i].detach().requires_grad_()
                out = stages[k](h)
                if k == S - 1:
                    out = loss_fn(out, ys[i]) * (ys[i].shape[0] / y.shape[0])
                received[k, i], sent[k, i] = h, out
                next_f[k] += 1
                f_done[k] += 1
                if k + 1 < S:
                    ready.append(k + 1)
            else:
                i = next_b[k]
                if k < S - 1 and b_done[k + 1] <= i:
                    break  # waits for stage k + 1's backward of i
                out = sent.pop((k, i))
                if k == S - 1:
                    torch.autograd.backward(out)
                    total = total + out.detach()
                else:
                    torch.autograd.backward(out, grad_tensors=grads.pop((k + 1, i)))
                h = received.pop((k, i))
                if k > 0:
                    grads[k, i] = h.grad
                    ready.append(k - 1)
                next_b[k] += 1
                b_done[k] += 1
            step[k] += 1
    assert all(step[k] == len(plans[k]) for k in range(S)), "some stage did not finish"
    return total
