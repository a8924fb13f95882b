# expect: pass
# hint:
# RIGHT: each stage a generator that yields its actions in 1F1B order, a driver that runs one
# when its input is there; torch.autograd.backward; the loss returned as a Python float.
import torch

from d2lgpu.pipeline import micro_batches


def _stage_actions(k, S, M):
    warm = min(S - k - 1, M)
    f = b = 0
    for _ in range(warm):
        yield "F", f
        f += 1
    while f < M:
        yield "F", f
        f += 1
        yield "B", b
        b += 1
    while b < M:
        yield "B", b
        b += 1


def answer(stages, x, y, loss_fn, n_micro):
    xs = [t for t in micro_batches(x, n_micro)]
    ys = [t for t in micro_batches(y, n_micro)]
    S, M = len(stages), len(xs)
    actions = [_stage_actions(k, S, M) for k in range(S)]
    pending = [next(a, None) for a in actions]
    acts = {}  # (k, i) -> stage k's output of micro-batch i, until its backward
    grads_in = {}  # (k, i) -> stage k's detached input, whose .grad goes back to stage k - 1
    finished_f, finished_b = set(), set()
    loss_sum = 0.0
    while any(p is not None for p in pending):
        progressed = False
        for k in range(S):
            if pending[k] is None:
                continue
            phase, i = pending[k]
            if phase == "F":
                if k and (k - 1, i) not in finished_f:
                    continue
                if k == 0:
                    h = xs[i]
                else:
                    h = acts[k - 1, i].detach()
                    h.requires_grad_(True)
                    grads_in[k, i] = h
                out = stages[k](h)
                if k == S - 1:
                    out = loss_fn(out, ys[i]) * xs[i].size(0) / x.size(0)
                acts[k, i] = out
                finished_f.add((k, i))
            else:
                if k < S - 1 and (k + 1, i) not in finished_b:
                    continue
                out = acts.pop((k, i))
                if k == S - 1:
                    torch.autograd.backward(out)
                    loss_sum += out.item()
                else:
                    torch.autograd.backward(out, grad_tensors=grads_in.pop((k + 1, i)).grad)
                finished_b.add((k, i))
            pending[k] = next(actions[k], None)
            progressed = True
        if not progressed:
            raise RuntimeError("no stage can move")
    return loss_sum
