# expect: fail the compute call sits inside the "with torch.cuda.stream(copy_stream)" block, so computes run on the copy stream behind the copies: right values, one queue, no overlap, not on the current stream
# hint: current stream|compute.*stream|side stream|same stream|one stream|overlap
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    results = []
    with torch.cuda.stream(copy_stream):
        x = batches[0].to(device, non_blocking=True) if batches else None
        for i in range(len(batches)):
            nxt = batches[i + 1].to(device, non_blocking=True) if i + 1 < len(batches) else None
            x.record_stream(compute_stream)
            results.append(compute(x))
            x = nxt
    compute_stream.wait_stream(copy_stream)
    return results


answer = pipelined
