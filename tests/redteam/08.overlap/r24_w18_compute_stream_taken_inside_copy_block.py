# expect: fail the "compute stream" is read with current_stream(device) inside the `with torch.cuda.stream(copy_stream)` block, so it is the copy stream itself: the copy stream waits for its own events and record_stream names it, while the computes on the real current stream wait for nothing
# hint: inside the (with|copy)|current_stream.*(inside|within)|copy stream (itself|waits)|its own event|wrong stream|compute stream|wait_event|doesn'?t wait|no wait
import torch


def pipelined(batches, compute, device):
    copy_stream = torch.cuda.Stream(device)
    with torch.cuda.stream(copy_stream):
        compute_stream = torch.cuda.current_stream(device)  # taken once, with the set-up
        first = batches[0].to(device, non_blocking=True)
        ahead = (first, copy_stream.record_event())
    results = []
    for i in range(len(batches)):
        x, ev = ahead
        if i + 1 < len(batches):
            with torch.cuda.stream(copy_stream):
                nxt = batches[i + 1].to(device, non_blocking=True)
                ahead = (nxt, copy_stream.record_event())
        compute_stream.wait_event(ev)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results


answer = pipelined
