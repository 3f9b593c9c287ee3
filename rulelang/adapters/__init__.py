"""Rule files in other frameworks: ``openspiel`` (a pyspiel Python game), ``pettingzoo`` (AEC and
Gymnasium environments) and ``tensors`` (observations as numpy arrays, shared by both).

Each needs its optional extra (``rulelang[openspiel]``, ``rulelang[pettingzoo]``); nothing else
in the package imports them.
"""
