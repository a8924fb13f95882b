# expect: pass queues every batch's copy to the device up front, keeps references instead of record_stream, and makes the side streams wait for the compute stream before returning
# hint: 
import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)

    on_device, arrived = [], []
    with torch.cuda.stream(copy_stream):
        for b in batches:
            on_device.append(b.to(device, non_blocking=True))
            arrived.append(copy_stream.record_event())

    results = []  # references kept: every y lives until the end
    last = None
    for i, (x, ev) in enumerate(zip(on_device, arrived)):
        compute_stream.wait_event(ev)
        y = compute(x)
        results.append(y)
        back_stream.wait_stream(compute_stream)
        buf = buffers[i % len(buffers)]
        with torch.cuda.stream(back_stream):
            buf.copy_(y, non_blocking=True)
            done = back_stream.record_event()
        if last is not None:
            j, jbuf, jdone = last
            jdone.synchronize()
            consume(j, jbuf)
        last = (i, buf, done)
    j, jbuf, jdone = last
    jdone.synchronize()
    consume(j, jbuf)
    # the device tensors were used on the compute and back streams: order them before release
    copy_stream.wait_stream(compute_stream)
    compute_stream.wait_stream(back_stream)
    copy_stream.wait_stream(back_stream)
    del results, on_device


answer = pipelined_to_host
