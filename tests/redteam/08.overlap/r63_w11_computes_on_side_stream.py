# expect: fail set_stream makes the side stream current for the whole loop, so copies and computes share one queue; the caller's stream is put back only before returning
# hint: one stream|same stream|(copies|computes?) on the (compute|current|side|copy) stream|set_stream|current stream|serial|no overlap|overlap
# WRONG: at the end the current stream is the caller's again and the values are right, but during
# the run every copy and compute went on the side stream, one after another.
import torch


def answer(batches, compute, device):
    caller = torch.cuda.current_stream(device)
    side = torch.cuda.Stream(device)
    side.wait_stream(caller)  # whatever the caller queued before comes first
    torch.cuda.set_stream(side)
    try:
        results = []
        nxt = batches[0].to(device, non_blocking=True)
        for i in range(len(batches)):
            x = nxt
            if i + 1 < len(batches):
                nxt = batches[i + 1].to(device, non_blocking=True)  # prefetch
            results.append(compute(x))
    finally:
        torch.cuda.set_stream(caller)
    caller.wait_stream(side)  # the caller sees finished results
    for y in results:
        y.record_stream(caller)
    return results
