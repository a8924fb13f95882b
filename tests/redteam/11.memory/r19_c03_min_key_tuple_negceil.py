# expect: pass explicit (−numel, index) sort, min over ranks keyed (load, rank), ceil as -(-rows // n); accepts torch.Size shapes
# hint: 
from functools import reduce
from operator import mul


def _numel(shape):
    return reduce(mul, shape, 1)


def _zero1_owned(numels, n):
    """The tensors (their sizes) rank 0 owns when ZeroRedundancyOptimizer deals them."""
    load = [0] * n
    mine = []
    for _, index in sorted((-size, i) for i, size in enumerate(numels)):
        rank = min(range(n), key=lambda r: (load[r], r))
        load[rank] += numels[index]
        if rank == 0:
            mine.append(numels[index])
    return mine


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    shapes = [tuple(s) for s in shapes]
    numels = [_numel(s) for s in shapes]
    if plan == "fsdp2":
        rows0 = [-(-s[0] // world_size) * _numel(s[1:]) for s in shapes]
        kept = sum(rows0)
        return dict(params=4 * kept, grads=4 * kept, optimizer=8 * kept + 4 * len(shapes))
    if plan not in ("ddp", "zero1"):
        raise ValueError(f"plan must be ddp, zero1 or fsdp2, got {plan!r}")
    states = numels if plan == "ddp" else _zero1_owned(numels, world_size)
    return dict(params=4 * sum(numels), grads=4 * sum(numels),
                optimizer=sum(8 * k + 4 for k in states))


answer = predict
