# expect: fail assumes at least 2 batches: primes two copies (batches[0] and batches[1]) up front
# hint: one batch|1 batch|IndexError|any number
import torch

def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            t = b.to(device, non_blocking=True)
            return t, copy_stream.record_event()

    queue = [send(batches[0]), send(batches[1])]
    results = []
    for i in range(len(batches)):
        x, ev = queue[i]
        if i + 2 < len(batches):
            queue.append(send(batches[i + 2]))
        compute_stream.wait_event(ev)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results


answer = pipelined
