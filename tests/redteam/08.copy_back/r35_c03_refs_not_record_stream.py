# expect: pass Keeps references to each batch's device tensors instead of record_stream, dropping them only once the host has synchronized with the copy back that follows their last use.
# hint:
# name: pipelined_to_host
import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    n = len(batches)
    main = torch.cuda.current_stream(device)
    inbound = torch.cuda.Stream(device)
    outbound = torch.cuda.Stream(device)

    def start_copy(k):
        with torch.cuda.stream(inbound):
            dev = batches[k].to(device, non_blocking=True)
            done = torch.cuda.Event()
            done.record(inbound)
        return dev, done

    # in flight: (index, device input, device result, buffer, event after its copy back);
    # the references keep the allocator from reusing memory another stream may still use
    in_flight = None
    upcoming = start_copy(0)
    for i in range(n):
        x, arrived = upcoming
        if i + 1 < n:
            upcoming = start_copy(i + 1)
        main.wait_event(arrived)
        y = compute(x)
        finished = torch.cuda.Event()
        finished.record(main)
        outbound.wait_event(finished)
        buf = buffers[i % 2]
        with torch.cuda.stream(outbound):
            buf.copy_(y, non_blocking=True)
            back = torch.cuda.Event()
            back.record(outbound)
        previous, in_flight = in_flight, (i, x, y, buf, back)
        if previous is not None:
            k, _x, _y, pbuf, pback = previous
            pback.synchronize()  # covers compute k and its copy back: _x and _y may go now
            consume(k, pbuf)
            del previous, _x, _y
    k, _x, _y, pbuf, pback = in_flight
    in_flight = None
    pback.synchronize()
    consume(k, pbuf)


answer = pipelined_to_host
