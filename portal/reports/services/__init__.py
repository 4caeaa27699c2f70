"""Report services, the only writers of runs and their files: ``runs`` (asking for a run,
running it, retrying it), ``schedules`` (the schedule's runs, each made once) and ``files``
(each format written whole, each download audited)."""
