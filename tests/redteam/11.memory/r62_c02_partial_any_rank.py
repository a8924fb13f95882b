# expect: pass a general per-rank predictor (any rank, FSDP2's shards as torch.chunk cuts them) bound to rank 0 with functools.partial
# hint:
import functools
import math


def _fsdp2_rows(rows, world_size, rank):
    """Real rows a rank keeps of a tensor with `rows` rows cut in shards of ceil(rows / N)."""
    per = -(-rows // world_size)
    return max(0, min(per, rows - rank * per))  # rank 0: ceil(rows / N), always


def _zero1_owner(numels, world_size):
    """Owner rank of each tensor, dealt as ZeroRedundancyOptimizer deals them."""
    loads = [0] * world_size
    owner = [None] * len(numels)
    for i in sorted(range(len(numels)), key=lambda i: numels[i], reverse=True):  # stable
        rank = min(range(world_size), key=lambda r: (loads[r], r))
        owner[i] = rank
        loads[rank] += numels[i]
    return owner


def rank_bytes(shapes, plan, world_size, *, rank):
    numels = [math.prod(s) for s in shapes]
    if plan == "fsdp2":
        kept = [_fsdp2_rows(s[0], world_size, rank) * math.prod(s[1:]) for s in shapes]
        updated = kept
    elif plan in ("ddp", "zero1"):
        kept = numels
        if plan == "ddp":
            updated = numels
        else:
            owner = _zero1_owner(numels, world_size)
            updated = [n for n, r in zip(numels, owner) if r == rank]
    else:
        raise ValueError(f"unknown plan {plan!r}")
    return {
        "params": 4 * sum(kept),
        "grads": 4 * sum(kept),
        "optimizer": sum(8 * n + 4 for n in updated),
    }


predict = functools.partial(rank_bytes, rank=0)
answer = predict
