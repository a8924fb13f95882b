# expect: fail the at-end version squeezes its (steps, 1, 1) log: for steps == 1 .tolist() returns a float, not a list of one float
# hint: steps ?(==|=) ?1|one step|single step|steps of 1|not a list|(got|returned|gave) (a )?(python )?float|list of (one|1)|squeeze|0-d
# Wrong: keepdim=True makes each norm (1, 1) so that X / norm broadcasts "explicitly"; the log
# is squeezed to (steps,), which for steps == 1 collapses to a 0-d tensor (prompt: steps >= 1).
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    out = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X, keepdim=True)  # shape (1, 1)
        out.append(norm.item())
        X = X / norm
    return out


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X, keepdim=True)  # shape (1, 1)
        log.append(norm)
        X = X / norm
    return torch.stack(log).squeeze().tolist()  # (steps, 1, 1) -> (steps,)


answer = (log_norms_per_step, log_norms_at_end)
