# expect: fail ZeRO-1 balances the ranks' bytes of state (moments plus step counters) instead of their elements
# hint: element|fewest|balanc|deal|numel|count
import math


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    sizes = [math.prod(s) for s in shapes]
    total = sum(sizes)
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * len(sizes)}
    if plan == "zero1":
        state = [0] * world_size  # bytes of Adam's state per rank
        for n in sorted(sizes, reverse=True):
            r = state.index(min(state))
            state[r] += 8 * n + 4
        return {"params": 4 * total, "grads": 4 * total, "optimizer": state[0]}
    own = sum(math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes)
    return {"params": 4 * own, "grads": 4 * own, "optimizer": 8 * own + 4 * len(sizes)}


# Differs only on some shapes, e.g. [(1,), (1,), (10,), (7,), (1,)] on 2 ranks: the tracker
# measures 84 B of optimizer state on rank 0, this returns 96 B.
answer = predict
