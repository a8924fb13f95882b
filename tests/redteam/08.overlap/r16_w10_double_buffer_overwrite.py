# expect: fail two reused device buffers: copy i + 2 overwrites one that compute i may still read
# hint: reuse|overwrit|buffer|still read|wait_stream|record_stream|memory
import torch


def answer(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    with torch.cuda.stream(copy_stream):  # double buffering: two device tensors, reused
        slots = [torch.empty(batches[0].shape, dtype=batches[0].dtype, device=device) for _ in range(2)]

    def send(i):
        with torch.cuda.stream(copy_stream):
            x = slots[i % 2]
            x.copy_(batches[i], non_blocking=True)
            return x, copy_stream.record_event()

    results, ahead = [], send(0)
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(i + 1)
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results
