# expect: fail copies every batch on the side stream, then torch.cuda.synchronize(device) once before the first compute: no compute overlaps any copy, and the host waits before the last compute is queued
# hint: synchron|host|overlap|before|wait_event|all copies|serial
import torch


def pipelined(batches, compute, device):
    copy_stream = torch.cuda.Stream(device)
    with torch.cuda.stream(copy_stream):
        on_device = [b.to(device, non_blocking=True) for b in batches]
    torch.cuda.synchronize(device)  # every batch has landed; the copies are done with
    compute_stream = torch.cuda.current_stream(device)
    results = []
    for x in on_device:
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results


answer = pipelined
