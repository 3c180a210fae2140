"""Bridges to other frameworks, each an optional extra: ``quanta.interop.pettingzoo``
(``pip install quanta[pettingzoo]``) and ``quanta.interop.gymnasium``
(``pip install quanta[gymnasium]``). Importing this package imports none of them."""
