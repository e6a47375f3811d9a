"""The rule systems that ship with vectorwar, each a plug-in on the kernel."""
