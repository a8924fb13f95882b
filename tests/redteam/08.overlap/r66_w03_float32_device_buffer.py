# expect: fail device tensor made with torch.empty(shape, device=device) has the default float32: float64 batches go over (and are computed) as float32
# hint: dtype|float64|float32|double|own dtype|precision
# Wrong: the buffer has no dtype=, so copy_ casts float64 batches to float32; the prompt says
# each batch goes over in its own dtype. float32 batches are fine.
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = torch.empty(b.shape, device=device)
            x.copy_(b, non_blocking=True)
            return x, copy_stream.record_event()

    results, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results


answer = pipelined
