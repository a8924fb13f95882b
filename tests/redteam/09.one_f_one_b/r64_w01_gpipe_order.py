# expect: fail each stage runs every forward before any backward (GPipe's order), not 1F1B's
# hint: gpipe|every forward.*before|all (the |its )?forwards (before|first|then)|forwards? (before|first).*(any|every|all|the) backward|no (interleav|alternat)
# WRONG: the order a learner gets by "forward all micro-batches through all stages, then
# backward them all": right loss and gradients, but each stage keeps all M in flight.
import torch

from d2lgpu.pipeline import micro_batches


def answer(stages, x, y, loss_fn, n_micro):
    xs, ys = micro_batches(x, n_micro), micro_batches(y, n_micro)
    S, M = len(stages), len(xs)
    inputs, outputs = {}, {}
    for i in range(M):  # forwards, stage by stage, micro-batch by micro-batch
        h = xs[i]
        for k in range(S):
            if k > 0:
                h = h.detach().requires_grad_()
                inputs[k, i] = h
            out = stages[k](h)
            if k == S - 1:
                out = loss_fn(out, ys[i]) * (len(xs[i]) / len(x))
            outputs[k, i] = out
            h = out
    losses = []
    for i in range(M):  # then the backwards, last stage first
        for k in reversed(range(S)):
            out = outputs.pop((k, i))
            if k == S - 1:
                out.backward()
                losses.append(out.detach())
            else:
                out.backward(inputs.pop((k + 1, i)).grad)
    return torch.stack(losses).sum()
