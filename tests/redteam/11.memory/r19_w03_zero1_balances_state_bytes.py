# expect: fail ZeRO-1 balances the ranks' optimizer bytes (moments plus 4-byte counters) instead of their elements, which deals differently when small tensors pile up
# hint: element|fewest elements|numel|counter|balanc|bytes
import math


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    numels = [math.prod(s) for s in shapes]
    psi, n = sum(numels), world_size
    if plan == "ddp":
        return {"params": 4 * psi, "grads": 4 * psi, "optimizer": 8 * psi + 4 * len(numels)}
    if plan == "zero1":
        state = [0] * n  # optimizer bytes per rank
        for size in sorted(numels, reverse=True):
            rank = state.index(min(state))
            state[rank] += 8 * size + 4
        return {"params": 4 * psi, "grads": 4 * psi, "optimizer": state[0]}
    if plan == "fsdp2":
        local = sum(math.ceil(s[0] / n) * math.prod(s[1:]) for s in shapes)
        return {"params": 4 * local, "grads": 4 * local, "optimizer": 8 * local + 4 * len(numels)}
    raise ValueError(f"unknown plan {plan!r}")


answer = predict
