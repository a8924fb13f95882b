# expect: fail the compute stream taken as current_stream() without the device: on cuda:1 the wait and record_stream go to another GPU's stream
# hint: cuda:1|device|current GPU|wrong GPU|wait
import torch


def pipelined(batches, compute, device):
    copy_stream = torch.cuda.Stream(device)
    compute_stream = torch.cuda.current_stream()  # slip: the current GPU's stream, not device's

    results = []
    with torch.cuda.stream(copy_stream):
        x_next = batches[0].to(device, non_blocking=True)
        ev_next = copy_stream.record_event()
    for i in range(len(batches)):
        x, ev = x_next, ev_next
        if i + 1 < len(batches):
            with torch.cuda.stream(copy_stream):
                x_next = batches[i + 1].to(device, non_blocking=True)
                ev_next = copy_stream.record_event()
        compute_stream.wait_event(ev)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results


answer = pipelined
