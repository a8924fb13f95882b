# expect: fail the at-end log is a mutable default argument: a second call returns the first call's norms too (2 * steps values)
# hint: second call|called (again|twice)|mutable|default (arg|value|list)|accumulat|cleared|previous call|earlier call|\d+ (values|norms)|too many|length
# Wrong: `log=[]` in the signature is made once, when the function is defined; every call
# appends to the same list, so only the first call returns `steps` norms.
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    out = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        out.append(norm.item())
        X = X / norm
    return out


def log_norms_at_end(A, steps, log=[]):  # noqa: B006
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)  # kept on the device
        X = X / norm
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
