"""The SDK's exceptions (stub)."""


class BudError(Exception):
    pass


class BuildFailedError(BudError):
    error_message = ""


class NotFoundError(BudError):
    pass


class ValidationError(BudError):
    errors = []
