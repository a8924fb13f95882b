# expect: fail log_norms_at_end keeps every step's product X in a history list (to recompute the norms in one batched call at the end), holding steps x n x n floats on the device, 40 MB at n=100 and 4 GB at n=1024 for 1000 steps, instead of steps numbers.
# hint: (memory|keeps? (every|all|each)|history|products?.*(kept|alive|held)|hold|n\s*x\s*n|matri(x|ces) (kept|alive)|batched)
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.size(0), dtype=A.dtype, device=A.device)
    out = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        out.append(norm.item())
        X = X / norm
    return out


def log_norms_at_end(A, steps):
    X = torch.eye(A.size(0), dtype=A.dtype, device=A.device)
    products = []
    for _ in range(steps):
        X = A @ X
        products.append(X)
        X = X / torch.linalg.matrix_norm(X)
    if not products:
        return []
    # every norm in one batched call, one transfer
    return torch.linalg.matrix_norm(torch.stack(products)).tolist()


answer = (log_norms_per_step, log_norms_at_end)
