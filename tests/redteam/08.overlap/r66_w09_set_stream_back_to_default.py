# expect: fail torch.cuda.set_stream to the copy stream, then "back" to the default stream: under a caller's stream the computes run on the default stream and the caller's current stream is left changed
# hint: current stream|set_stream|default stream|restor|put back|(left|leave).{0,30}(changed|stream)|caller
# Wrong: after the first copy the current stream is the default one, not the caller's: the
# computes leave the current stream the prompt names (and never wait for their copies there),
# and the caller returns to a different current stream.
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        torch.cuda.set_stream(copy_stream)
        x = b.to(device, non_blocking=True)
        copied = copy_stream.record_event()
        torch.cuda.set_stream(torch.cuda.default_stream(device))  # back to normal
        return x, copied

    results, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results


answer = pipelined
