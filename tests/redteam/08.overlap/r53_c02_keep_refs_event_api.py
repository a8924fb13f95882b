# expect: pass references kept and the copy stream made to wait for the compute stream before returning; Event objects with record(stream) and wait(stream)
# hint:
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    keep = []  # device batches stay referenced until the copy stream waits for the computes

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
        done = torch.cuda.Event()
        done.record(copy_stream)
        keep.append(x)
        return x, done

    results = []
    pending = send(batches[0])
    for nxt in [*batches[1:], None]:
        x, done = pending
        if nxt is not None:
            pending = send(nxt)
        done.wait(compute_stream)
        results.append(compute(x))
    copy_stream.wait_stream(compute_stream)  # later allocations on copy_stream follow the computes
    del keep
    return results


answer = pipelined
