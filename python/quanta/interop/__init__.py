"""Every quanta game in other frameworks' shapes, one module a framework, each needing its own
optional extra (``pip install 'quanta[openspiel]'`` for :mod:`quanta.interop.openspiel`,
``'quanta[pettingzoo]'`` for :mod:`quanta.interop.pettingzoo`, ``'quanta[gymnasium]'`` for
:mod:`quanta.interop.gymnasium`). Importing ``quanta`` imports none of them; docs/interop.md
shows each in use."""
