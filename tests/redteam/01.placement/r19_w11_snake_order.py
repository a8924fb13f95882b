# expect: fail snake (boustrophedon) order 0,1,1,0,0 / 0,1,2,2,1 instead of plain round-robin 0,1,0,1,0
# hint: order|round.?robin|in turn|snake|cuda:0, cuda:1|sequence|table
import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, snaking over d2lgpu.try_all_gpus() for balance."""
    devices = d2lgpu.try_all_gpus()
    n = len(devices)
    placement = []
    for worker in range(n_workers):
        lap, slot = divmod(worker, n)
        placement.append(devices[slot if lap % 2 == 0 else n - 1 - slot])
    return placement


answer = place_workers
