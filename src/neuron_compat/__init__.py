"""neuron-compat: which model architectures run on AWS Neuron, per stack and Neuron SDK release."""

__version__ = "0.1.0"
