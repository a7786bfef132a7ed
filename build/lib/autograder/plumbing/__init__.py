"""What every process needs and no room owns: the kit's error base class, where a command's
time goes, heavy imports with the garbage collector paused or put off until used, the checks
before a patch of another library's private code, the kit's CJK font, old names of moved
modules, the hash seed the grader shares with the kernels, the course a folder is in. Imports
nothing of the kit's other rooms."""
