# expect: fail the compute is queued inside the side stream's with block, so copies and computes share one stream and run serially
# hint: current stream|compute stream|same stream|one stream|side stream|serial|overlap
import torch


def pipelined(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    side = torch.cuda.Stream(device)
    side.wait_stream(torch.cuda.current_stream(device))
    results = []
    with torch.cuda.stream(side):
        x = batches[0].to(device, non_blocking=True)
        for i in range(len(batches)):
            if i + 1 < len(batches):
                x_next = batches[i + 1].to(device, non_blocking=True)  # prefetch the next batch
            results.append(compute(x))
            if i + 1 < len(batches):
                x = x_next
    torch.cuda.current_stream(device).wait_stream(side)
    return results


answer = pipelined
