# expect: fail copies into device buffers made with torch.empty(shape, device=device): the default float32, so a float64 batch goes over converted, not in its own dtype
# hint: dtype|float64|float32|double|own dtype|empty
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = torch.empty(b.shape, device=device)
            x.copy_(b, non_blocking=True)
            return x, copy_stream.record_event()

    results = []
    ahead = send(batches[0]) if batches else None
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results


answer = pipelined
