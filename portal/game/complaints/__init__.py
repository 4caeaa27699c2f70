"""Complaints and disputes a player files with the holder first, each with its number
(reading:complaint-number): filed from the player's account (pages and API), handled by
the holder's supervisors (compliance officers for every holder), answered in writing; an
upheld dispute about money is settled by an adjustment decided under four-eyes
(reading:adjustment-grounds)."""
