# expect: fail references kept but, before returning, the compute stream waits for the copy stream instead of the copy stream for the compute stream: memory freed while computes may read it
# hint: record_stream|wait_stream|freed|free[ds]? |memory.{0,40}(reus|free|handed)|reference|copy stream.{0,30}wait.{0,30}compute
# Wrong: no record_stream; the device tensors are kept in a list, but the closing wait goes the
# wrong way (compute waits for copy), so on return their memory goes back to the copy stream's
# pool while the last computes may still read it.
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    kept, results = [], []

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
            kept.append(x)  # a reference kept instead of record_stream
            return x, copy_stream.record_event()

    ahead = send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        results.append(compute(x))
    compute_stream.wait_stream(copy_stream)  # "the streams are in step before we free kept"
    del kept
    return results


answer = pipelined
