# expect: fail makes its own GradScaler instead of using the caller's scaler argument
# hint: scaler.*(given|passed|argument|caller|own|new|fresh|unused|ignored)|(own|new|fresh|second).*(scaler|GradScaler)|GradScaler\(
# Wrong: the prompt gives the scaler to use (scaler is a torch.amp.GradScaler). This loop
# builds a fresh one per call: same losses, but the caller's scaler never learns its scale
# (its state across calls, and any scale or growth settings the caller chose, are lost).
import torch
import torch.nn.functional as F


def answer(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    use_scaler = scaler is not None
    if use_scaler:
        scaler = torch.amp.GradScaler(device_type)  # a clean one for this run
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        if use_scaler:
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            scaler.step(opt)
            scaler.update()
        else:
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            opt.step()
        losses.append(loss.detach())
    return torch.stack(losses)
