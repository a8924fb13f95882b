# expect: fail a mutable default argument collects the results: a second call returns the earlier calls' results too
# hint: second call|again|earlier call|previous|between calls|default argument|kept|(too many|extra|more) results|length|number of results
# Wrong: the first call is right; the `results=[]` default is made once, so every later call
# appends to it and returns the results of all calls so far.
import torch


def pipelined(batches, compute, device, results=[]):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    ahead = send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results


answer = pipelined
