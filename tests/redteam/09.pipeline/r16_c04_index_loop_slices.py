# expect: pass index loop over integer cut points with slices, running sum of weighted losses
# hint: 
def answer(stage1, stage2, x, y, loss_fn, n_micro):
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    size, extra = divmod(len(x), m)  # the first `extra` micro-batches one row longer
    cuts = [i * size + min(i, extra) for i in range(m + 1)]
    total = None
    for lo, hi in zip(cuts[:-1], cuts[1:]):
        act = stage1(x[lo:hi].to(dev1)).to(dev2)
        part = loss_fn(stage2(act), y[lo:hi].to(dev2)) * ((hi - lo) / len(x))
        total = part if total is None else total + part
    total.backward()
    return total.detach()
