# expect: pass one generator per stage that yields its actions, torch.autograd.backward with grad_tensors
# hint: 
import torch

from d2lgpu.pipeline import micro_batches


def _stage_actions(k, n_stages, n_micro):
    """Stage k's 1F1B order, one action at a time."""
    warm = min(n_stages - k - 1, n_micro)
    forwards, backwards = iter(range(n_micro)), iter(range(n_micro))
    for _ in range(warm):
        yield "F", next(forwards)
    for _ in range(n_micro - warm):
        yield "F", next(forwards)
        yield "B", next(backwards)
    for i in backwards:
        yield "B", i


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    """One 1F1B training step of stages[0], ..., stages[-1] on (x, y); returns the loss."""
    xs, ys = micro_batches(x, n_micro), micro_batches(y, n_micro)
    n_stages, m = len(stages), len(xs)
    last = n_stages - 1
    pending = [_stage_actions(k, n_stages, m) for k in range(n_stages)]
    upcoming = [next(p, None) for p in pending]
    received = {}  # (k, i): the input stage k got for micro-batch i
    produced = {}  # (k, i): what stage k's forward of i returned (the loss, on the last)
    done = set()  # ("F" | "B", k, i)
    losses = []

    while any(a is not None for a in upcoming):
        for k in range(n_stages):
            if upcoming[k] is None:
                continue
            kind, i = upcoming[k]
            if kind == "F":
                if k > 0 and ("F", k - 1, i) not in done:
                    continue
                h = xs[i] if k == 0 else produced[k - 1, i].detach().requires_grad_()
                out = stages[k](h)
                if k == last:
                    out = loss_fn(out, ys[i]) * (xs[i].shape[0] / x.shape[0])
                received[k, i], produced[k, i] = h, out
            else:
                if k < last and ("B", k + 1, i) not in done:
                    continue
                out = produced.pop((k, i))
                if k == last:
                    torch.autograd.backward(out)
                    losses.append(out.detach())
                else:
                    torch.autograd.backward(out, grad_tensors=received.pop((k + 1, i)).grad)
            done.add((kind, k, i))
            upcoming[k] = next(pending[k], None)
    return torch.stack(losses).sum()


answer = one_f_one_b_step
