# expect: fail one Event object re-recorded after every copy: compute i waits for the newest record, copy i+1, so copy i+1 never runs during compute i
# hint: overlap|event.{0,40}(reus|same|one|re-?record|shared)|(same|one|single) event|wait.{0,40}(next|later|newer|i ?\+ ?1)|too (late|much|long)|longer than
# Wrong: values are right, but wait_event uses the event's latest record, which the next copy
# has already moved: each compute waits for the following copy, so that copy runs before it
# instead of during it (and the run is one stage longer).
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    copied = torch.cuda.Event()  # one marker, re-recorded after each copy

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
        copied.record(copy_stream)
        return x

    results, x_next = [], send(batches[0])
    for i in range(len(batches)):
        x = x_next
        if i + 1 < len(batches):
            x_next = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results


answer = pipelined
