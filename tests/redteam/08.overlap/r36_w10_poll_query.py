# expect: fail spins on event.query() until each copy has landed instead of wait_event: a host wait in disguise before every compute
# hint: query|poll|spin|busy|host|wait_event|GPU.*wait
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            return b.to(device, non_blocking=True), copy_stream.record_event()

    results = []
    ahead = send(batches[0]) if batches else None
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        while not copied.query():  # no synchronize(): just check whether it has landed
            pass
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results


answer = pipelined
