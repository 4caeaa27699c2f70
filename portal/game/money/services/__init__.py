"""Every change to a player's money goes through a function of these modules, named
``<thing>_<verb>``: ``accounts`` (opening one, the holder's restrictions), ``deposits``
(§ 812a.7), ``withdrawals`` (§ 812a.10) and ``limit_changes`` (the player's own limits
and pauses, § 814a.2). Each writes its ledger entry (if money moves) and an audit event
naming it, in one transaction, under the player's locks (``selectors.locked``)."""
