# expect: pass a dispatch table of functools.partial rules with a class holding the model's sizes
# hint:
import functools
import math
from dataclasses import dataclass


@dataclass(frozen=True)
class _Model:
    shapes: tuple

    @functools.cached_property
    def sizes(self):
        return [math.prod(s) for s in self.shapes]

    def state(self, kept_params, kept_grads, moments, counters):
        return {"params": 4 * kept_params, "grads": 4 * kept_grads,
                "optimizer": 8 * moments + 4 * counters}


def _replicated(model, world_size, *, shard_state):
    total = sum(model.sizes)
    if not shard_state:
        return model.state(total, total, total, len(model.sizes))
    loads = {rank: 0 for rank in range(world_size)}
    moments = counters = 0
    # largest first; equal sizes keep the module's order (key is the negated size, index breaks ties)
    for _, index in sorted((-size, index) for index, size in enumerate(model.sizes)):
        rank = min(loads, key=lambda r: (loads[r], r))
        loads[rank] += model.sizes[index]
        if rank == 0:
            moments += model.sizes[index]
            counters += 1
    return model.state(total, total, moments, counters)


def _sharded(model, world_size):
    rows_each = [-(-s[0] // world_size) * math.prod(s[1:]) for s in model.shapes]
    mine = sum(rows_each)
    return model.state(mine, mine, mine, len(model.shapes))


_RULES = {
    "ddp": functools.partial(_replicated, shard_state=False),
    "zero1": functools.partial(_replicated, shard_state=True),
    "fsdp2": _sharded,
}


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    model = _Model(tuple(tuple(int(d) for d in s) for s in shapes))
    return {k: int(v) for k, v in _RULES[plan](model, world_size).items()}


answer = predict
