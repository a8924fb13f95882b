# expect: pass a least-loaded scheduler: heap of (load, position, device), ties go to the lowest position
# hint: 
import heapq

import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    heap = [(0, position, device) for position, device in enumerate(d2lgpu.try_all_gpus())]
    heapq.heapify(heap)
    placed = []
    for _ in range(n_workers):
        load, position, device = heapq.heappop(heap)  # least loaded, then lowest index
        placed.append(device)
        heapq.heappush(heap, (load + 1, position, device))
    return placed


answer = place_workers
