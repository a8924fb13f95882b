# expect: pass
# hint:
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    """A clock: at tick t stage 2 takes micro-batch t - 1 and stage 1 micro-batch t; row
    indices split with tensor_split and gathered with index_select."""
    d = [next(s.parameters()).device for s in (stage1, stage2)]
    n = x.size(0)
    index_groups = torch.arange(n).tensor_split(min(n_micro, n))
    m = len(index_groups)
    in_flight = {}  # micro-batch -> stage 1's output, on stage 2's device
    parts = []
    for tick in range(m + 1):
        if tick >= 1:
            i = tick - 1
            idx = index_groups[i]
            out = stage2(in_flight.pop(i))
            target = y.index_select(0, idx).to(d[1])
            parts.append(loss_fn(out, target) * (idx.numel() / n))
        if tick < m:
            xb = x.index_select(0, index_groups[tick]).to(d[0])
            in_flight[tick] = stage1(xb).to(d[1])
    loss = parts[0]
    for part in parts[1:]:
        loss = loss + part
    loss.backward()
    return loss.detach()
