# expect: fail (r15_w11 with from torch.cuda import ...) the compute is queued inside the side stream's with block, so copies and computes share one stream and run serially
# hint: current stream|compute stream|same stream|one stream|side stream|serial|overlap
from torch.cuda import Stream, current_stream, stream


def pipelined(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    side = Stream(device)
    side.wait_stream(current_stream(device))
    results = []
    with stream(side):
        x = batches[0].to(device, non_blocking=True)
        for i in range(len(batches)):
            if i + 1 < len(batches):
                x_next = batches[i + 1].to(device, non_blocking=True)  # prefetch the next batch
            results.append(compute(x))
            if i + 1 < len(batches):
                x = x_next
    current_stream(device).wait_stream(side)
    return results


answer = pipelined
