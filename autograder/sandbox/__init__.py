"""Isolation and transport only: the warm kernel template, one sandboxed kernel, the agent
in it and the wire format. It knows nothing of steps, checks or nbgrader."""
