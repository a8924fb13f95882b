# expect: pass no order written out: each round every stage runs one action, a backward when its gradient is there, else its next forward (in flight capped at S-k); this greedy loop yields 1F1B's orders exactly
# hint:
import torch


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    """One 1F1B training step of stages[0], ..., stages[-1] on (x, y); returns the loss."""
    pairs = [
        (xb, yb)
        for xb, yb in zip(torch.tensor_split(x, n_micro), torch.tensor_split(y, n_micro))
        if len(xb) > 0  # fewer rows than micro-batches: drop the empty ones
    ]
    n_stages, n_mb, last = len(stages), len(pairs), len(stages) - 1
    fwd_next = [0] * n_stages  # the next micro-batch each stage will run forward
    bwd_next = [0] * n_stages  # ... and backward
    ins = [{} for _ in stages]  # stage k: micro-batch -> its input (a leaf, for k > 0)
    outs = [{} for _ in stages]  # stage k: micro-batch -> its output (the loss, last)
    loss = torch.zeros(())

    def can_backward(k):
        i = bwd_next[k]
        return i < fwd_next[k] and (k == last or bwd_next[k + 1] > i)

    def can_forward(k):
        i = fwd_next[k]
        in_flight = fwd_next[k] - bwd_next[k]
        return i < n_mb and (k == 0 or fwd_next[k - 1] > i) and in_flight < n_stages - k

    while bwd_next[0] < n_mb:  # stage 0's last backward is the step's last action
        for k, stage in enumerate(stages):  # one action per stage per round
            if can_backward(k):
                i = bwd_next[k]
                out = outs[k].pop(i)
                if k == last:
                    out.backward()
                else:
                    out.backward(ins[k + 1].pop(i).grad)
                bwd_next[k] += 1
            elif can_forward(k):
                i = fwd_next[k]
                xb, yb = pairs[i]
                h = xb if k == 0 else outs[k - 1][i].detach().requires_grad_()
                out = stage(h)
                if k == last:
                    out = loss_fn(out, yb) * (xb.shape[0] / x.shape[0])
                    loss = loss + out.detach()
                ins[k][i], outs[k][i] = h, out
                fwd_next[k] += 1
    return loss


answer = one_f_one_b_step
