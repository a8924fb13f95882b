# expect: pass
# hint:
# Right: ZeRO-1's deal done with a heap of (elements held, rank), which pops the lowest
# rank on a tie; FSDP2's rank-0 shard is ceil(rows / N) rows; Python ints throughout.
import heapq
import math


def answer(shapes, plan, world_size):
    numels = [math.prod(shape) for shape in shapes]
    everything = sum(numels)
    if plan == "ddp":
        return {
            "params": 4 * everything,
            "grads": 4 * everything,
            "optimizer": 8 * everything + 4 * len(shapes),
        }
    if plan == "zero1":
        heap = [(0, rank) for rank in range(world_size)]
        owned = []
        # sorted() is stable: equal sizes stay in the module's order
        for numel in sorted(numels, reverse=True):
            held, rank = heapq.heappop(heap)
            if rank == 0:
                owned.append(numel)
            heapq.heappush(heap, (held + numel, rank))
        return {
            "params": 4 * everything,
            "grads": 4 * everything,
            "optimizer": 8 * sum(owned) + 4 * len(owned),
        }
    if plan == "fsdp2":
        shard = 0
        for shape in shapes:
            rows = -(-shape[0] // world_size)  # ceil in integers
            shard += rows * math.prod(shape[1:])
        return {"params": 4 * shard, "grads": 4 * shard, "optimizer": 8 * shard + 4 * len(shapes)}
    raise ValueError(f"unknown plan {plan!r}")
