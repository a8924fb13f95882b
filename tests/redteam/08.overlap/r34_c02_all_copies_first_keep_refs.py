# expect: pass all copies queued up front, computes each wait for their event (e.wait(stream)), references kept and the copy stream made to wait for the compute stream before returning
# hint: 
import torch

def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    side = torch.cuda.Stream(device)
    on_device, landed = [], []
    with torch.cuda.stream(side):
        for b in batches:
            on_device.append(b.to(device, non_blocking=True))
            landed.append(side.record_event())
    results = []
    for x, ev in zip(on_device, landed):
        ev.wait(compute_stream)
        results.append(compute(x))
    # the device tensors belong to side's pool: side must not reuse them before the computes end
    side.wait_stream(compute_stream)
    return results


answer = pipelined
