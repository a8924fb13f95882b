# expect: fail copy_stream.wait_stream(compute) queued after compute i and before copy i + 1: every copy waits for the compute before it, so copies and computes take turns (no overlap)
# hint: overlap|serial|wait_stream|waits for the compute|take turns|after the compute|no overlap
import torch


def answer(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    results, kept = [], []
    ahead = send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        compute_stream.wait_event(copied)
        kept.append(x)
        results.append(compute(x))
        # instead of record_stream: the copy stream waits for the computes before reusing memory
        copy_stream.wait_stream(compute_stream)
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
    return results
