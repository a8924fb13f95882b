# expect: fail save_parameters moves the caller's model to the CPU (module .to() is in place) to save it
# hint: mov(ed|es)|side.?effect|caller|\.cpu\(\)|\.to\(|model.*(cpu|device)|(cpu|device).*model|left on
# Wrong: "so the file loads anywhere", net.cpu() before saving; but a module's .to()/.cpu()
# moves the module itself, so the caller's model on the GPU ends up on the CPU. Invisible
# when the model is already on the CPU.
import torch


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    """Save net's state_dict to path."""
    torch.save(net.cpu().state_dict(), path)  # CPU tensors load on any machine


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    state = torch.load(path, map_location=device, weights_only=True)
    net = make_net().to(device)
    net.load_state_dict(state)
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
