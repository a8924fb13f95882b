# expect: fail keeps references to the device tensors instead of record_stream, but returns without making the copy stream wait for the compute stream: the memory is reused while the last computes may still read it
# hint: record_stream|wait_stream|reuse|freed|memory|reference
import torch
def answer(batches, compute, device):
    cur, side = torch.cuda.current_stream(device), torch.cuda.Stream(device)
    on_device, events, out = [], [], []
    with torch.cuda.stream(side):
        x = batches[0].to(device, non_blocking=True)
    on_device.append(x)
    events.append(side.record_event())
    for i in range(len(batches)):
        if i + 1 < len(batches):
            with torch.cuda.stream(side):
                on_device.append(batches[i + 1].to(device, non_blocking=True))
                events.append(side.record_event())
        cur.wait_event(events[i])
        out.append(compute(on_device[i]))
    return out  # on_device goes away here, no wait_stream
