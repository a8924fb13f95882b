# expect: pass
# hint:
# name: pipelined
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def stage(batch):
        if batch is None:
            return None
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
        landed = torch.cuda.Event()
        landed.record(copy_stream)  # after the copy, on the copy stream
        return x, landed

    it = iter(batches)
    pending = stage(next(it, None))
    results = []
    while pending is not None:
        x, landed = pending
        pending = stage(next(it, None))  # the next copy, queued before this compute
        landed.wait(compute_stream)  # the compute stream waits for this copy, on the GPU
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results
