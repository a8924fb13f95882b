# expect: fail runs the computes on a private new stream (torch.cuda.Stream) instead of the current stream, and returns without making the caller's stream wait: results are not ordered for the caller
# hint: current stream|current_stream|compute stream|caller
import torch

def pipelined(batches, compute, device):
    copy_stream = torch.cuda.Stream(device)
    work_stream = torch.cuda.Stream(device)
    caller = torch.cuda.current_stream(device)
    work_stream.wait_stream(caller)  # inputs made on the caller's stream

    def send(b):
        with torch.cuda.stream(copy_stream):
            return b.to(device, non_blocking=True), copy_stream.record_event()

    results = []
    ahead = send(batches[0])
    for i in range(len(batches)):
        x, ev = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        work_stream.wait_event(ev)
        x.record_stream(work_stream)
        with torch.cuda.stream(work_stream):
            results.append(compute(x))
    return results


answer = pipelined
