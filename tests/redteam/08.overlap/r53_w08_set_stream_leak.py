# expect: fail switches streams with set_stream and "restores" the default stream, not the caller's current stream: the caller's stream is changed
# hint: current stream|set_stream|restor|chang|left|put back|caller
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        torch.cuda.set_stream(copy_stream)
        x = b.to(device, non_blocking=True)
        ev = copy_stream.record_event()
        torch.cuda.set_stream(torch.cuda.default_stream(device))  # slip: not compute_stream
        return x, ev

    results, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        with torch.cuda.stream(compute_stream):
            results.append(compute(x))
    return results


answer = pipelined
