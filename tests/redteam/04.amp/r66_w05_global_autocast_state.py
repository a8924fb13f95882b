# expect: fail autocast is switched on for the whole loop with set_autocast_enabled (put back only at the end): backward, clip and step run under it and its weight-cast cache is never cleared
# hint: (backward|clip|step|whole loop).{0,60}(autocast|inside|within|under)|(autocast|inside|within|under).{0,60}(backward|clip|step|whole loop)|only the forward|cache|stale|set_autocast
# Wrong: "only they" (forward and loss) may run under autocast. Turning it on process-wide
# (thread-wide) around the loop and restoring it before returning hides the state from an end check,
# and without autocast's __exit__ the cached 16-bit weights are reused after opt.step() changed them.
import torch
import torch.nn.functional as F


def answer(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    was_enabled = torch.is_autocast_enabled(device_type)
    was_dtype = torch.get_autocast_dtype(device_type)
    torch.set_autocast_enabled(device_type, True)  # once, not at every step
    torch.set_autocast_dtype(device_type, dtype)
    try:
        losses = []
        for X, y in batches:
            loss = F.cross_entropy(net(X), y)
            opt.zero_grad()
            if scaler is not None:
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
    finally:  # leave the process as found
        torch.set_autocast_dtype(device_type, was_dtype)
        torch.set_autocast_enabled(device_type, was_enabled)
