# expect: fail builds the sum by hand from isend/irecv around a ring (chapter 10.5's picture) instead of dist.all_reduce: each rank sends its whole gradient n-1 times, (n-1)*S bytes, not the ring all-reduce's 2(n-1)/n*S, and the ranks add in different orders
# hint: send|recv|point.to.point|p2p|by hand|ring|dist\.all_reduce|n ?- ?1|bytes
# name: average_gradients
import torch
import torch.distributed as dist


@torch.no_grad()
def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    rank, world = dist.get_rank(), dist.get_world_size()
    right, left = (rank + 1) % world, (rank - 1) % world
    for p in model.parameters():
        if p.grad is None:
            continue
        total = p.grad.clone()
        passing = p.grad.clone()  # what this rank forwards to the right
        incoming = torch.empty_like(passing)
        for _ in range(world - 1):  # after n-1 hops every rank has seen every gradient
            requests = [dist.isend(passing, right), dist.irecv(incoming, left)]
            for r in requests:
                r.wait()
            total += incoming
            passing, incoming = incoming, passing
        p.grad.copy_(total / world)
