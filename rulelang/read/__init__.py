"""Reading a rule file: the source and its spans, bounded reads, the YAML and DSL loaders, the
document they both produce, ``extends``/``params`` resolution and the verdict cache.

The first stage of the pipeline: nothing here imports the compiler, the engine or a view.
"""
