"""One launcher per platform behind one protocol (``service.launchers.base``): create a job exactly once,
describe it, stop it."""
