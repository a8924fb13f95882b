# expect: fail references to the device batches are kept instead of record_stream, but dropped at return without making the copy stream wait for the compute stream
# hint: record_stream|wait_stream|freed|reference|allocator|before returning|still (use|read|run)
# WRONG: keeping the list only helps until the function returns; the prompt's alternative to
# record_stream is references kept AND the copy stream made to wait for the compute stream.
import torch


def answer(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    keep = []  # references, so the allocator cannot reuse the memory

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
            keep.append(x)
            return x, copy_stream.record_event()

    results, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        results.append(compute(x))
    return results
