# expect: pass class with __call__; order derived from an in-flight limit of S - k per stage
# hint: 
import torch


class OneFOneB:
    """Each stage does a forward while it holds fewer than S - k micro-batches, else a backward."""

    def __call__(self, stages, x, y, loss_fn, n_micro):
        n_stages = len(stages)
        xs = torch.tensor_split(x, min(n_micro, len(x)))
        ys = torch.tensor_split(y, len(xs))
        m = len(xs)
        next_f = [0] * n_stages  # next micro-batch to run forward, per stage
        next_b = [0] * n_stages  # next micro-batch to run backward, per stage
        sent = {}  # (k, i) -> stage k's output for micro-batch i (the last stage: weighted loss)
        received = {}  # (k, i) -> stage k's detached input for micro-batch i
        total = torch.zeros(())
        while any(b < m for b in next_b):
            progressed = False
            for k, stage in enumerate(stages):
                limit = n_stages - k  # at most this many micro-batches in flight
                in_flight = next_f[k] - next_b[k]
                if next_f[k] < m and in_flight < limit:
                    i = next_f[k]
                    if k > 0 and (k - 1, i) not in sent:
                        continue  # wait for the stage before
                    if k == 0:
                        h = xs[i]
                    else:
                        h = sent[k - 1, i].detach().requires_grad_()
                        received[k, i] = h
                    out = stage(h)
                    if k == n_stages - 1:
                        out = loss_fn(out, ys[i]) * (xs[i].shape[0] / x.shape[0])
                    sent[k, i] = out
                    next_f[k] += 1
                    progressed = True
                elif next_b[k] < next_f[k]:
                    i = next_b[k]
                    if k < n_stages - 1:
                        if next_b[k + 1] <= i:
                            continue  # wait for the stage after
                        sent.pop((k, i)).backward(received.pop((k + 1, i)).grad)
                    else:
                        loss = sent.pop((k, i))
                        loss.backward()
                        total = total + loss.detach()
                    next_b[k] += 1
                    progressed = True
            assert progressed, "no stage could move"
        return total


answer = OneFOneB()
