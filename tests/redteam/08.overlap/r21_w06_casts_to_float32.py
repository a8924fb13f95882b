# expect: fail each batch is copied with dtype=torch.float32: compute sees a converted tensor, wrong for batches that are not float32 (ints, halves, doubles)
# hint: dtype|float32|cast|convert|integer|half|double
import torch


def answer(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, dtype=torch.float32, non_blocking=True)  # compute in float32
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
