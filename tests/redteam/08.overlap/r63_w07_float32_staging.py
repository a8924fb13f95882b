# expect: fail device buffers are made with torch.empty(shape, device=...) in the default float32, so float64 batches go over (and are computed) as float32
# hint: dtype|float64|double|float32|precision|own dtype
# WRONG: right for the float32 batches; a float64 batch is rounded to float32 by copy_, and the
# result is compute() of another tensor (another dtype, other values).
import torch


def answer(batches, compute, device):
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
