"""budai.types (stub): NetworkPolicy is the same class as budai.NetworkPolicy."""
from budai import NetworkPolicy

__all__ = ["NetworkPolicy"]
