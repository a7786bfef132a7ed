"""What is checked, with no nbgrader and no kernel in it: the step model, comparing,
recognising mistakes, the documents' values and recipes, one module of steps per assignment."""
