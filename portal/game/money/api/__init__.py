"""The player's money under /api/: the wallet (``wallet``), the player's accounts with the
holders (``accounts``) and their withdrawals (``withdrawals``). Each resource's bodies are
beside its viewset; the limits' bodies, which the accounts' actions read, are
``limits``'."""
