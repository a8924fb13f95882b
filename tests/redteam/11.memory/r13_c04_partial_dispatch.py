# expect: pass functools.partial per plan, dict dispatch, rank loads for all ranks
# hint: 
import math
from functools import partial

BYTES, MOMENTS, STEP = 4, 2, 4


def _replicated(numels, shards, n, *, sharded_state):
    psi = sum(numels)
    if not sharded_state:  # DDP: Adam updates every tensor
        state = [(m, 1) for m in numels]
    else:  # ZeroRedundancyOptimizer: largest first, to the rank with the fewest elements
        load = dict.fromkeys(range(n), 0)
        state = []
        for m in sorted(numels, reverse=True):
            r = min(load, key=lambda k: (load[k], k))
            load[r] += m
            if r == 0:
                state.append((m, 1))
    return psi, psi, state


def _fsdp2(numels, shards, n):
    local = sum(shards)
    return local, local, [(s, 1) for s in shards]


PLANS = {
    "ddp": partial(_replicated, sharded_state=False),
    "zero1": partial(_replicated, sharded_state=True),
    "fsdp2": _fsdp2,
}


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    if plan not in PLANS:
        raise ValueError(f"unknown plan {plan!r}")
    numels = [math.prod(s) for s in shapes]
    shards = [math.ceil(s[0] / world_size) * (m // s[0]) if s[0] else 0
              for s, m in zip(shapes, numels)]
    p, g, state = PLANS[plan](numels, shards, world_size)
    return dict(
        params=BYTES * p,
        grads=BYTES * g,
        optimizer=sum(MOMENTS * BYTES * e + STEP * c for e, c in state),
    )


answer = predict
