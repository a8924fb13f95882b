# expect: fail two device buffers reused in turn; the copy of batch i + 2 into a buffer does not wait for compute i that reads it
# hint: reus|overwr|race|while.*(read|comput)|freed|record_stream|memory
import torch


def pipelined(batches, compute, device):
    """Double buffering: two device buffers per shape/dtype, filled in turn on the side stream."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    slots = {}  # (shape, dtype) -> two device buffers
    results, events = [], []

    def send(i):
        b = batches[i]
        with torch.cuda.stream(copy_stream):
            key = (tuple(b.shape), b.dtype)
            if key not in slots:
                slots[key] = [torch.empty_like(b, device=device) for _ in range(2)]
            x = slots[key][i % 2]
            # missing: copy_stream.wait_stream(compute_stream) before refilling a buffer
            x.copy_(b, non_blocking=True)
            return x, copy_stream.record_event()

    ahead = send(0)
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(i + 1)
        compute_stream.wait_event(copied)
        results.append(compute(x))
    copy_stream.wait_stream(compute_stream)  # buffers kept alive until the computes are done
    return results


answer = pipelined
