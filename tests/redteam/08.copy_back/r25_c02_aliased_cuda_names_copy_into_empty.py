# expect: pass torch.cuda names imported under aliases inside the function, copies in through copy_ into torch.empty(device=...), copies back through the unbound Tensor.copy_
# hint: 
def answer(batches, compute, device, buffers, consume):
    from torch import Tensor, empty
    from torch.cuda import Event as Marker
    from torch.cuda import Stream as Queue
    from torch.cuda import current_stream as queue_now
    from torch.cuda import stream as queued_on

    main = queue_now(device)
    inbound, outbound = Queue(device), Queue(device)

    def stage(batch):
        with queued_on(inbound):
            x = empty(batch.shape, dtype=batch.dtype, device=device)
            x.copy_(batch, non_blocking=True)
            mark = Marker()
            mark.record()  # the current stream here is inbound
        return x, mark

    last = None  # (index, buffer, marker after its copy back)
    staged = stage(batches[0])
    for i in range(len(batches)):
        x, mark = staged
        if i + 1 < len(batches):
            staged = stage(batches[i + 1])
        main.wait_event(mark)
        x.record_stream(main)
        y = compute(x)
        if last is not None:
            j, held, marker = last
            marker.synchronize()
            consume(j, held)
        outbound.wait_event(main.record_event())
        target = buffers[i % 2]
        with queued_on(outbound):
            y.record_stream(outbound)
            Tensor.copy_(target, y, non_blocking=True)
            marker = Marker()
            marker.record()
        last = (i, target, marker)
    j, held, marker = last
    marker.synchronize()
    consume(j, held)
