"""KGLens mode (the paper): the parameterized KG, samplers, learned propagation, question
generation, the design and its estimators, and the engine that runs them."""
